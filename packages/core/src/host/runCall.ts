import { Observable, type Subscription } from 'rxjs';
import { tapRunning } from '../agent/agentBase.js';
import type { AgentEvent } from '../agent/agentEvent.js';
import type { CallInput, CallOptions } from '../agent/callOptions.js';
import { normalizeInput } from '../internal/normalizeInput.js';
import { type Msg, userMsg } from '../message/msg.js';
import type { HostThread } from './hostThread.js';
import type { HostThreads } from './hostThreads.js';
import { ThreadRun } from './threadRun.js';

/**
 * One call on `thread` of an AgentHost, recorded for `attach()`, saved before its reply is
 * emitted. A `streamed` call runs through the agent's `stream()` and emits every event;
 * otherwise through its `call()`, emitting only the reply, and its events are recorded
 * (through `tapRunning`) only from when a follower attaches: a plain call pays nothing for
 * `attach()` while nobody follows it. An interrupt or messages steered while the agent was
 * loading reach it as soon as its call starts. Internal.
 */
export function runCall(
  threads: HostThreads,
  thread: HostThread,
  input: CallInput | undefined,
  options: CallOptions | undefined,
  streamed: boolean,
): Observable<AgentEvent> {
  return new Observable<AgentEvent>((subscriber) => {
    const run = new ThreadRun('call', streamed);
    thread.run = run;
    let inner: Subscription | undefined;
    let reply: AgentEvent | undefined;
    let ended = false;
    const end = (error?: unknown): void => {
      if (ended) return;
      ended = true;
      if (thread.run === run) thread.run = undefined;
      if (error === undefined) run.end();
      else run.fail(error);
      thread.turns.kick();
      threads.evictOverflow();
    };
    const finish = (): void => {
      if (reply === undefined) {
        end();
        subscriber.complete();
        return;
      }
      const last = reply;
      threads.save(thread).then(
        () => {
          run.record(last);
          end();
          subscriber.next(last);
          subscriber.complete();
        },
        (error: unknown) => {
          end(error);
          subscriber.error(error);
        },
      );
    };
    thread.ready().then(
      (agent) => {
        if (ended || subscriber.closed) return;
        run.started = true;
        const steered = run.steered.splice(0);
        const msgs = steered.length === 0 ? input : [...callMsgs(input), ...steered];
        const onError = (error: unknown): void => {
          thread.dirty = true;
          end(error);
          subscriber.error(error);
        };
        const onComplete = (): void => {
          thread.dirty = true;
          finish();
        };
        if (run.recording) {
          // Streamed, or a follower came while the agent was loading: every event.
          inner = agent.stream(msgs, options).subscribe({
            next: (event) => {
              if (event.type === 'reply') {
                reply = event;
                return;
              }
              run.record(event);
              if (streamed) subscriber.next(event);
            },
            error: onError,
            complete: onComplete,
          });
        } else {
          run.onFirstFollow = () => {
            tapRunning(agent, (event) => run.record(event));
          };
          inner = agent.call(msgs, options).subscribe({
            next: (msg) => {
              reply = Object.freeze({ type: 'reply', msg });
            },
            error: onError,
            complete: onComplete,
          });
        }
        if (run.interrupt !== undefined) agent.interrupt(run.interrupt.message);
      },
      (error: unknown) => {
        end(error);
        subscriber.error(error);
      },
    );
    return () => {
      inner?.unsubscribe();
      if (!ended) {
        thread.dirty = true;
        end();
      }
    };
  });
}

/** A call's input as Msgs (a string is one user message). */
function callMsgs(input: CallInput | undefined): Msg[] {
  if (typeof input === 'string') return [userMsg(input)];
  return normalizeInput(input, 'AgentHost.call()');
}
