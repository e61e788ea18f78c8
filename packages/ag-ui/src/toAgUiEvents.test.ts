import type { Event } from '@ag-ui/core';
import { EventSchemas } from '@ag-ui/core/schemas';
import {
  AgentBase,
  type AgentEvent,
  assistantMsg,
  type CallContext,
  ModelError,
  type Msg,
  userMsg,
} from '@rxagent/core';
import {
  firstValueFrom,
  lastValueFrom,
  mergeAll,
  Observable,
  of,
  Subject,
  throwError,
  toArray,
} from 'rxjs';
import { describe, expect, it } from 'vitest';
import { weatherAgent } from '../test/weatherAgent.js';
import { toAgUiEvents } from './toAgUiEvents.js';

const ids = { threadId: 'thread-1', runId: 'run-1' };
const agent = new (class extends AgentBase {
  protected doCall(): Observable<Msg> {
    return of(assistantMsg('x'));
  }
})({ name: 'a' });

async function eventsOf(source: Observable<Event>): Promise<Event[]> {
  const events = await lastValueFrom(source.pipe(toArray()));
  for (const event of events) EventSchemas.parse(event);
  return events;
}

function summary(events: readonly Event[]): string[] {
  return events.map((event) => {
    switch (event.type) {
      case 'TEXT_MESSAGE_CONTENT':
      case 'REASONING_MESSAGE_CONTENT':
      case 'TOOL_CALL_ARGS':
        return `${event.type} ${event.delta}`;
      case 'TOOL_CALL_START':
        return `${event.type} ${event.toolCallName}`;
      case 'TOOL_CALL_RESULT':
        return `${event.type} ${event.content}`;
      case 'RUN_FINISHED':
        return `${event.type} ${event.outcome?.type}`;
      case 'RUN_ERROR':
        return `${event.type} ${event.code} ${event.message}`;
      default:
        return event.type;
    }
  });
}

/** Ends every call with an approval stop, as ReActAgent will for a `needsApproval` tool. */
class ApprovalStopAgent extends AgentBase {
  protected doCall(_msgs: Msg[], _context: CallContext): Observable<Msg> {
    const calls = [
      { type: 'tool_use' as const, id: 'call_rm', name: 'delete_file', input: { path: 'a.txt' } },
      { type: 'tool_use' as const, id: 'call_ls', name: 'list_files', input: {} },
    ];
    return of(
      assistantMsg(calls, {
        name: this.name,
        metadata: {
          generateReason: 'approval_required',
          pendingToolCalls: calls,
          approvalRequired: ['call_rm'],
        },
      }),
    );
  }
}

/** A call that never ends; `started` resolves when its work begins. */
class NeverAgent extends AgentBase {
  unsubscribed = 0;
  readonly begun = new Subject<void>();
  readonly started = firstValueFrom(this.begun);
  protected doCall(): Observable<Msg> {
    return new Observable<Msg>(() => {
      this.begun.next();
      return () => {
        this.unsubscribed++;
      };
    });
  }
}

class FailingModelAgent extends AgentBase {
  protected doCall(): Observable<Msg> {
    return throwError(() => new ModelError('upstream said 500', { status: 500 }));
  }
}

describe('toAgUiEvents', () => {
  it('maps streamed text, a tool call and its result, then RUN_FINISHED with success', async () => {
    const agent = weatherAgent([
      { toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: { city: 'Paris' } }] },
      'Paris is sunny.',
    ]);
    const events = await eventsOf(toAgUiEvents(agent.stream(userMsg('Weather?')), ids));
    expect(summary(events)).toEqual([
      'RUN_STARTED',
      'TOOL_CALL_START get_weather',
      'TOOL_CALL_ARGS {"city":',
      'TOOL_CALL_ARGS "Paris"}',
      'TOOL_CALL_END',
      'TOOL_CALL_RESULT Sunny, 21°C',
      'TEXT_MESSAGE_START',
      'TEXT_MESSAGE_CONTENT Paris',
      'TEXT_MESSAGE_CONTENT  is',
      'TEXT_MESSAGE_CONTENT  sunny.',
      'TEXT_MESSAGE_END',
      'RUN_FINISHED success',
    ]);
    const finished = events.at(-1);
    expect(finished).toMatchObject({
      threadId: 'thread-1',
      runId: 'run-1',
      result: { generateReason: 'stop' },
    });
    const start = events.find((event) => event.type === 'TOOL_CALL_START');
    expect(start).toMatchObject({ toolCallId: 'call_1' });
  });

  it('maps streamed thinking to reasoning events, closed before the text begins', async () => {
    const agent = weatherAgent([{ thinking: 'Easy one.', text: 'Hello there.' }]);
    const events = await eventsOf(toAgUiEvents(agent.stream(userMsg('Hi')), ids));
    expect(summary(events)).toEqual([
      'RUN_STARTED',
      'REASONING_START',
      'REASONING_MESSAGE_START',
      'REASONING_MESSAGE_CONTENT Easy',
      'REASONING_MESSAGE_CONTENT  one.',
      'REASONING_MESSAGE_END',
      'REASONING_END',
      'TEXT_MESSAGE_START',
      'TEXT_MESSAGE_CONTENT Hello',
      'TEXT_MESSAGE_CONTENT  there.',
      'TEXT_MESSAGE_END',
      'RUN_FINISHED success',
    ]);
  });

  it('sends the whole text of a reply that was not streamed', async () => {
    const events = await eventsOf(
      toAgUiEvents(new EchoLike({ name: 'echo' }).stream(userMsg('Hi')), ids),
    );
    expect(summary(events)).toEqual([
      'RUN_STARTED',
      'TEXT_MESSAGE_START',
      'TEXT_MESSAGE_CONTENT echo: Hi',
      'TEXT_MESSAGE_END',
      'RUN_FINISHED success',
    ]);
  });

  it('shows a guardrail that redacted or refused as a CUSTOM rxagent.guardrail event', async () => {
    const stream = of<AgentEvent[]>([
      {
        type: 'guardrail',
        agent,
        guardrail: 'quiet',
        stage: 'input',
        tripped: false,
        replaced: false,
      },
      {
        type: 'guardrail',
        agent,
        guardrail: 'pii',
        stage: 'output',
        tripped: true,
        replaced: false,
        reason: 'email',
      },
      {
        type: 'reply',
        msg: assistantMsg('Refused.', {
          name: 'a',
          metadata: {
            generateReason: 'guardrail',
            guardrail: { guardrail: 'pii', stage: 'output' },
          },
        }),
      },
    ]).pipe(mergeAll());
    const events = await eventsOf(toAgUiEvents(stream, ids));
    expect(summary(events)).toEqual([
      'RUN_STARTED',
      'CUSTOM',
      'TEXT_MESSAGE_START',
      'TEXT_MESSAGE_CONTENT Refused.',
      'TEXT_MESSAGE_END',
      'RUN_FINISHED success',
    ]);
    expect(events[1]).toMatchObject({
      name: 'rxagent.guardrail',
      value: { guardrail: 'pii', stage: 'output', tripped: true, replaced: false, reason: 'email' },
    });
  });

  it('represents an approval stop as an interrupt outcome naming the calls that need a decision', async () => {
    const agent = new ApprovalStopAgent({ name: 'ops' });
    const events = await eventsOf(toAgUiEvents(agent.stream(userMsg('Clean up')), ids));
    expect(summary(events)).toEqual([
      'RUN_STARTED',
      'TOOL_CALL_START delete_file',
      'TOOL_CALL_ARGS {"path":"a.txt"}',
      'TOOL_CALL_START list_files',
      'TOOL_CALL_ARGS {}',
      'TOOL_CALL_END',
      'TOOL_CALL_END',
      'RUN_FINISHED interrupt',
    ]);
    expect(events.at(-1)).toMatchObject({
      result: { generateReason: 'approval_required' },
      outcome: {
        type: 'interrupt',
        interrupts: [
          {
            id: 'call_rm',
            reason: 'tool_approval',
            toolCallId: 'call_rm',
            metadata: { toolName: 'delete_file', input: { path: 'a.txt' } },
          },
        ],
      },
    });
  });

  it('represents an interrupted call as a cancelled outcome', async () => {
    const agent = weatherAgent([{ text: 'one two three four', chunkDelayMs: 50 }]);
    const events: Event[] = [];
    await new Promise<void>((resolve) => {
      toAgUiEvents(agent.stream(userMsg('Count')), ids).subscribe({
        next: (event) => {
          events.push(event);
          if (event.type === 'TEXT_MESSAGE_CONTENT' && events.length < 4) agent.interrupt();
        },
        complete: resolve,
      });
    });
    for (const event of events) EventSchemas.parse(event);
    expect(summary(events).at(-1)).toBe('RUN_FINISHED cancelled');
    expect(events.at(-1)).toMatchObject({ result: { generateReason: 'interrupted' } });
    // The open text message is ended before the run finishes.
    expect(summary(events)).toContain('TEXT_MESSAGE_END');
  });

  it('maps an error to RUN_ERROR with its code, and completes', async () => {
    const events = await eventsOf(
      toAgUiEvents(new FailingModelAgent({ name: 'broken' }).stream(userMsg('Hi')), ids),
    );
    expect(summary(events)).toEqual(['RUN_STARTED', 'RUN_ERROR MODEL_FAILED upstream said 500']);
  });

  it('cancels the call when unsubscribed', async () => {
    const agent = new NeverAgent({ name: 'never' });
    const seen: Event[] = [];
    const subscription = toAgUiEvents(agent.stream(userMsg('Hi')), ids).subscribe((event) =>
      seen.push(event),
    );
    await agent.started;
    expect(agent.unsubscribed).toBe(0);
    subscription.unsubscribe();
    expect(agent.unsubscribed).toBe(1);
    expect(summary(seen)).toEqual(['RUN_STARTED']);
  });

  it('ends the run with RUN_ERROR, and unsubscribes its source, when an event cannot be mapped', async () => {
    // A pending call whose input cannot be serialised: the interrupt message quotes it.
    const call = { type: 'tool_use' as const, id: 'c1', name: 'count', input: { n: 1n } };
    const reply = assistantMsg([call] as never, {
      name: 'a',
      metadata: { generateReason: 'tool_calls_stopped' },
    });
    let unsubscribed = false;
    const source = new Observable<AgentEvent>((subscriber) => {
      subscriber.next({ type: 'reply', msg: reply });
      return () => {
        unsubscribed = true;
      };
    });
    const events = await eventsOf(toAgUiEvents(source, ids));
    expect(summary(events).at(-1)).toMatch(/^RUN_ERROR undefined .*BigInt/);
    expect(unsubscribed).toBe(true);
  });

  it('ends the run with RUN_ERROR when its source completes without a reply', async () => {
    const events = await eventsOf(toAgUiEvents(of(), ids));
    expect(summary(events)[1]).toMatch(
      /^RUN_ERROR undefined The agent event stream completed without a reply/,
    );
  });
});

class EchoLike extends AgentBase {
  protected doCall(msgs: Msg[]): Observable<Msg> {
    const text = msgs
      .map((msg) => msg.content.map((b) => (b.type === 'text' ? b.text : '')).join(''))
      .join(' ');
    return of(assistantMsg(`echo: ${text}`, { name: this.name }));
  }
}
