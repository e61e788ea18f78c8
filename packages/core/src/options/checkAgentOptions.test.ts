import { type Observable, of } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { AgentBase, type AgentBaseOptions } from '../agent/agentBase.js';
import { assistantMsg, type Msg } from '../message/msg.js';

class Declared extends AgentBase {
  static override readonly optionKeys = ['greeting'];
  readonly greeting: string;
  constructor(options: AgentBaseOptions & { greeting?: string }) {
    super(options);
    this.greeting = options.greeting ?? 'hi';
  }
  protected doCall(): Observable<Msg> {
    return of(assistantMsg(this.greeting, { name: this.name }));
  }
}

class Undeclared extends Declared {}

describe('checkAgentOptions (through AgentBase)', () => {
  it('accepts the keys of every class in the chain', () => {
    expect(new Declared({ name: 'a', greeting: 'yo', description: 'd' }).greeting).toBe('yo');
  });

  it('rejects an unknown key with a TypeError naming it, the class and the likely key', () => {
    expect(() => new Declared({ name: 'a', greting: 'yo' } as never)).toThrow(
      /^Declared: unknown option "greting" \(did you mean "greeting"\?\)/,
    );
  });

  it('checks nothing when a class of the chain declares no optionKeys', () => {
    expect(() => new Undeclared({ name: 'a', anything: 1 } as never)).not.toThrow();
  });

  it('checks every agent of a class against its keys as they are, reassigned ones included', () => {
    class Changing extends Declared {
      static override optionKeys = ['tone'];
    }
    expect(() => new Changing({ name: 'a', tone: 'dry', greeting: 'yo' } as never)).not.toThrow();
    expect(() => new Changing({ name: 'a', mood: 'x' } as never)).toThrow(/unknown option "mood"/);
    Changing.optionKeys = ['mood'];
    expect(() => new Changing({ name: 'a', mood: 'x' } as never)).not.toThrow();
    expect(() => new Changing({ name: 'a', tone: 'dry' } as never)).toThrow(
      /unknown option "tone"/,
    );
    // A class of the chain that stops declaring its keys turns the check off, as before.
    Reflect.deleteProperty(Changing, 'optionKeys');
    expect(() => new Changing({ name: 'a', anything: 1 } as never)).not.toThrow();
  });
});
