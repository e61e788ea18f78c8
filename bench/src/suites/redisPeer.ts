// The other process of the redis suite: agent "peer" in a RedisMsgHub. It answers every
// "ping" it hears with a "pong" (a call whose reply the hub appends), and records how long each
// message took from its sender's clock to its observe(). On "report" it prints those
// latencies as JSON and exits.
// Usage: node --import tsx --import ./src/build/register.mjs src/suites/redisPeer.ts <url> <topic>
import { AgentBase, assistantMsg, type Msg, textOf } from '@rxagent/core';
import { RedisMsgHub } from '@rxagent/redis';
import { EMPTY, lastValueFrom, type Observable, of } from 'rxjs';

const [url, topic] = process.argv.slice(2) as [string, string];
const latenciesMs: number[] = [];
let lastAt = 0;
let heard = 0;

/** Now, in ms since the epoch with sub-millisecond precision: comparable across processes. */
const now = (): number => performance.timeOrigin + performance.now();

class Peer extends AgentBase {
  protected override doCall(msgs: Msg[]): Observable<Msg> {
    const text = msgs.length > 0 ? textOf(msgs[msgs.length - 1]!) : '';
    return of(
      assistantMsg(text.replace('ping', 'pong'), { name: 'peer', metadata: { sentAt: now() } }),
    );
  }
  protected override doObserve(msg: Msg): Observable<void> {
    const sentAt = msg.metadata['sentAt'];
    lastAt = now();
    heard++;
    if (typeof sentAt === 'number') latenciesMs.push(lastAt - sentAt);
    return EMPTY;
  }
}

const peer = new Peer({ name: 'peer' });
const hub = new RedisMsgHub({ url, topic, participants: [peer], consumer: 'peer', startAt: 'end' });
hub.events.subscribe((event) => {
  if (event.type !== 'delivered') return;
  const text = textOf(event.msg);
  if (text.startsWith('ping')) void lastValueFrom(peer.call(event.msg));
  else if (text === 'report') {
    process.stdout.write(`${JSON.stringify({ latenciesMs, heard, lastAt })}\n`);
    void hub.close().then(() => process.exit(0));
  }
});
await lastValueFrom(hub.enter());
process.stdout.write('ready\n');
