import {
  concat,
  endWith,
  ignoreElements,
  lastValueFrom,
  type Observable,
  Subject,
  toArray,
} from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { ReasoningChunkEvent } from '../hooks/hookEvent.js';
import { assistantMsg, type Msg } from '../message/msg.js';
import { textOf } from '../message/readers.js';
import { EchoAgent, FailingAgent, ManualAgent, RecordingAgent } from '../testing/testAgents.js';
import type { ToolEvent } from '../tool/tool.js';
import { Toolkit } from '../tool/toolkit.js';
import type { AgentBase } from './agentBase.js';
import type { CallContext } from './callContext.js';

/** Streams each word of its answer as a reasoningChunk event, then replies with all of them. */
class WordsAgent extends RecordingAgent {
  constructor(readonly words: readonly string[]) {
    super({ name: 'writer', description: 'Writes things.' });
  }

  protected doCall(msgs: Msg[], context: CallContext): Observable<Msg> {
    this.record(msgs, context);
    const reply = assistantMsg(this.words.join(''), { name: this.name });
    const chunks = this.words.map(
      (text): ReasoningChunkEvent => ({
        type: 'reasoningChunk',
        agent: this,
        delta: { text },
        accumulated: reply,
      }),
    );
    return concat(...chunks.map((chunk) => this.notify(chunk))).pipe(
      ignoreElements(),
      endWith(reply),
    );
  }
}

function execute(agent: AgentBase, request: unknown, signal = new AbortController().signal) {
  const toolkit = new Toolkit([agent.asTool()]);
  const name = toolkit.names()[0]!;
  return toolkit.execute({ id: 'c1', name, input: request }, { toolCallId: 'c1', signal });
}

function resultOf(events: readonly ToolEvent[]) {
  const last = events[events.length - 1];
  if (last?.type !== 'result') throw new Error('no result');
  return last.result;
}

describe('agentTool', () => {
  it('calls the agent with the request as a user message and returns its reply text', async () => {
    const echo = new EchoAgent({ name: 'echo', prefix: 'heard: ' });
    const events = await lastValueFrom(execute(echo, { request: 'hello' }).pipe(toArray()));
    expect(resultOf(events)).toMatchObject({ output: 'heard: hello' });
    expect(resultOf(events).isError).toBeUndefined();
    expect(echo.calls[0]?.map((msg) => [msg.role, textOf(msg)])).toEqual([['user', 'hello']]);
  });

  it('names the tool after the agent in the function-name charset, undeduplicated', () => {
    const agent = new EchoAgent({ name: 'Research Desk!', description: 'Finds sources.' });
    const tool = agent.asTool();
    expect([tool.name, tool.description, tool.dedupe]).toEqual([
      'Research_Desk_',
      'Finds sources.',
      false,
    ]);
    const named = agent.asTool({ name: 'ask_research', description: 'Ask it.' });
    expect([named.name, named.description]).toEqual(['ask_research', 'Ask it.']);
    expect(new EchoAgent({ name: 'x' }).asTool().description).toMatch(/Asks the agent "x"/);
  });

  it("streams the agent's text deltas as chunks, then the reply as the result", async () => {
    const writer = new WordsAgent(['one ', 'two ', 'three']);
    const events = await lastValueFrom(execute(writer, { request: 'count' }).pipe(toArray()));
    expect(events.map((e) => (e.type === 'chunk' ? e.output : e.result.output))).toEqual([
      'one ',
      'two ',
      'three',
      'one two three',
    ]);
  });

  it('makes a failed call an error result', async () => {
    const failing = new FailingAgent({ name: 'broken', error: new Error('disk full') });
    const events = await lastValueFrom(execute(failing, { request: 'x' }).pipe(toArray()));
    expect(resultOf(events)).toMatchObject({ isError: true });
    expect(String(resultOf(events).output)).toMatch(/disk full/);
  });

  it('makes an interrupted reply an error result', async () => {
    const manual = new ManualAgent({ name: 'slow' });
    const done = lastValueFrom(execute(manual, { request: 'x' }).pipe(toArray()));
    manual.interrupt();
    manual.fail(new DOMException('aborted', 'AbortError'));
    const result = resultOf(await done);
    expect(result.isError).toBe(true);
    expect(String(result.output)).toMatch(/agent "slow" was interrupted/);
  });

  it('gives an error result, not a hang, when the agent is already running', async () => {
    const manual = new ManualAgent({ name: 'busy' });
    const first = manual.call().subscribe();
    const events = await lastValueFrom(execute(manual, { request: 'x' }).pipe(toArray()));
    expect(String(resultOf(events).output)).toMatch(/still running/);
    expect(resultOf(events).isError).toBe(true);
    first.unsubscribe();
  });

  it("cancels the agent's call at once when the tool's signal aborts, leaving it callable", async () => {
    const manual = new ManualAgent({ name: 'slow' });
    const controller = new AbortController();
    const events = new Subject<ToolEvent>();
    const seen = lastValueFrom(events.pipe(toArray()));
    execute(manual, { request: 'x' }, controller.signal).subscribe(events);
    expect(manual.isRunning).toBe(true);
    controller.abort();
    expect(manual.isRunning).toBe(false);
    expect(manual.signals[0]?.aborted).toBe(true);
    expect(String(resultOf(await seen).output)).toMatch(/^\[interrupted\]/);
    const again = lastValueFrom(manual.call());
    manual.respond('back');
    expect(textOf(await again)).toBe('back');
  });
});
