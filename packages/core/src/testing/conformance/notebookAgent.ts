import { concat, defer, NEVER, type Observable, of } from 'rxjs';
import { AgentBase } from '../../agent/agentBase.js';
import type { CallContext } from '../../agent/callContext.js';
import type { DurableOptions } from '../../durable/durableOptions.js';
import { InMemoryMemory } from '../../memory/inMemoryMemory.js';
import { assistantMsg, type Msg } from '../../message/msg.js';
import { textOf } from '../../message/readers.js';

/**
 * The durable agent of the session suite: it keeps a conversation in memory, checkpoints
 * once it stored the input, and replies `noted: <input>`. With `hang`, it stops after the
 * checkpoint (a process that dies mid-call); a recovered call replies
 * `recovered: <input>`.
 */
export class NotebookAgent extends AgentBase {
  readonly memory = new InMemoryMemory();
  hang = false;

  constructor(durable: DurableOptions) {
    super({ name: 'notebook', durable });
    this.registerState('memory', this.memory);
  }

  protected doCall(msgs: Msg[], context: CallContext): Observable<Msg> {
    return defer(() => {
      const recovered = context.recovered !== undefined;
      if (!recovered) this.memory.add(msgs);
      const text = msgs.map(textOf).join('\n');
      const step = recovered ? of(undefined) : context.checkpoint({ stored: true });
      const answer = defer(() => {
        if (this.hang) return NEVER;
        const reply = assistantMsg(`${recovered ? 'recovered' : 'noted'}: ${text}`, {
          name: this.name,
        });
        this.memory.add(reply);
        return of(reply);
      });
      return concat(step, answer) as Observable<Msg>;
    });
  }
}
