import { Observable } from 'rxjs';
import type { AgentBase } from '../agent/agentBase.js';
import type { AgentEvent } from '../agent/agentEvent.js';
import type { HostThread } from './hostThread.js';
import type { HostThreads } from './hostThreads.js';
import { ThreadRun } from './threadRun.js';

/**
 * Continues request `inputId` on a fresh agent of `thread` of a durable AgentHost (see
 * `AgentHost.recover`): the agent is made anew and recovered from its checkpoint, since
 * another process may have advanced the thread since this one loaded it. Emits the reply
 * (recorded for `attach()`) when the checkpoint holds that request. Internal.
 */
export function recoverRun(
  threads: HostThreads,
  thread: HostThread,
  inputId: string,
): Observable<AgentEvent> {
  return new Observable<AgentEvent>((subscriber) => {
    const run = new ThreadRun('call');
    thread.run = run;
    run.started = true;
    const end = (): void => {
      if (thread.run === run) thread.run = undefined;
      run.end();
      thread.turns.kick();
      threads.evictOverflow();
    };
    // Another process may have advanced the thread: load it afresh.
    let agent: AgentBase;
    try {
      agent = threads.made(thread.threadId);
    } catch (error) {
      end();
      subscriber.error(error);
      return;
    }
    thread.replace(agent);
    const inner = agent.recover({ inputId }).subscribe({
      next: (msg) => {
        const event: AgentEvent = Object.freeze({ type: 'reply', msg });
        run.record(event);
        subscriber.next(event);
      },
      error: (error: unknown) => {
        end();
        subscriber.error(error);
      },
      complete: () => {
        end();
        subscriber.complete();
      },
    });
    return () => {
      inner.unsubscribe();
      if (thread.run === run) end();
    };
  });
}
