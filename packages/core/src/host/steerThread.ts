import { defer, EMPTY, Observable } from 'rxjs';
import { normalizeInput } from '../internal/normalizeInput.js';
import { type Msg, userMsg } from '../message/msg.js';
import type { HostThread } from './hostThread.js';
import type { HostThreads } from './hostThreads.js';
import { ThreadRun } from './threadRun.js';

/**
 * Steers messages into thread `threadId` of an AgentHost (see `AgentHost.steer`): into its
 * running call's next model request; kept for the call while its agent still loads; or,
 * when nothing runs, delivered to the idle agent (through its `doObserve`) and saved, after
 * the thread's queue. Cold; completes once the messages are with the agent. Internal.
 */
export function steerThread(
  threads: HostThreads,
  threadId: string,
  input: string | Msg | readonly Msg[],
): Observable<never> {
  return defer(() => {
    const msgs =
      typeof input === 'string' ? [userMsg(input)] : normalizeInput(input, 'AgentHost.steer()');
    const thread = threads.thread(threadId, 'steer()');
    const run = thread.run;
    if (run?.started) {
      thread.agent?.steer(msgs);
      return EMPTY;
    }
    if (run !== undefined) {
      run.steered.push(...msgs);
      return EMPTY;
    }
    return thread.turns.run(() => deliver(threads, thread, msgs));
  });
}

/** Delivers steered messages to an idle thread's agent, then saves it. */
function deliver(
  threads: HostThreads,
  thread: HostThread,
  msgs: readonly Msg[],
): Observable<never> {
  return new Observable<never>((subscriber) => {
    const run = new ThreadRun('steer');
    thread.run = run;
    const end = (error?: unknown): void => {
      if (thread.run === run) thread.run = undefined;
      run.end();
      thread.turns.kick();
      threads.evictOverflow();
      if (error === undefined) subscriber.complete();
      else subscriber.error(error);
    };
    thread
      .ready()
      .then((agent) => {
        agent.steer(msgs);
        thread.dirty = true;
        return threads.save(thread);
      })
      .then(() => end(), end);
  });
}
