import type { Observable } from 'rxjs';
import { InterruptedError, isAbortError } from '../errors.js';
import type { AgentHooks } from '../hooks/agentHooks.js';
import { createMsg, type Msg } from '../message/msg.js';
import type { ActiveCall } from './activeCall.js';
import type { Agent } from './agent.js';
import type { AgentRecovery } from './agentRecovery.js';
import type { CallContext } from './callContext.js';
import type { InterruptContext } from './callOptions.js';
import type { HubSubscribers } from './hubSubscribers.js';

/**
 * An agent as its calls see it: AgentBase with the protected methods the steps call.
 * TypeScript's `protected` binds the compiler, not the object, so AgentBase hands itself over
 * once as this rather than one closure per method per agent.
 */
export interface CallsAgent extends Agent {
  doCall(msgs: Msg[], context: CallContext): Observable<Msg>;
  handleInterrupt(context: InterruptContext, msgs: Msg[]): Observable<Msg>;
  doObserve(msg: Msg): Observable<void>;
  defaultSystemPrompt(): string;
  renameSpeaker(from: string, to: string): void;
  readonly supportsStructuredOutput: boolean;
}

/** What the steps of a call need of the agent's calls (`AgentCalls`). */
export interface StepsOwner {
  readonly agent: CallsAgent;
  readonly hooks: AgentHooks;
  /** The agent's hub subscribers, once it joined a hub. */
  readonly subscribers: HubSubscribers | undefined;
  /** The durable side of the agent's calls, when it is durable. */
  readonly recovery: AgentRecovery | undefined;
  /** What `interrupt()` asked during the call, if it did. */
  readonly interrupted: InterruptContext | undefined;
}

/**
 * The steps of a call after the guard (1) and the interrupt reset (2), in order. An
 * interrupt in steps 3–4 becomes `handleInterrupt`'s reply, marked, which goes on from
 * step 5; any other error runs the error hooks and fails the call.
 */
export function runCallSteps(call: ActiveCall, input: Msg[], owner: StepsOwner): void {
  const { agent } = owner;
  const { durable } = call;
  // 5. postCall hooks may replace the reply; 5a. a durable call saves itself finished;
  // 6. every hub subscriber observes it; 7. the guard is released, then the reply is emitted.
  // Without hub subscribers (most agents) the reply is emitted at once, with no Observable.
  const broadcast = (final: Msg) => (): void => {
    const subscribers = owner.subscribers;
    if (subscribers === undefined) call.finish(final);
    else call.finishAfter(subscribers.broadcast(final, agent, owner.hooks.runError));
  };
  const fail = (error: unknown): void => call.fail(error);
  const deliver = (reply: Msg): void =>
    call.postCall(reply, (final) =>
      durable ? call.afterSave(durable.finish(final), broadcast(final), fail) : broadcast(final)(),
    );
  const recover =
    (msgs: Msg[]) =>
    (error: unknown): void => {
      const interruptReply = interruptReplyOf(error, msgs, owner);
      const go = (): void => call.recover(error, interruptReply, deliver);
      // A failed durable call is over, for its caller got the error: saved finished, unless
      // its checkpoint is no longer this process's (a failed save) or the caller left.
      if (durable && !interruptReply && !durable.failed && !call.cancelled)
        call.afterSave(durable.finish(), go, go);
      else go();
    };
  // 3. preCall hooks may replace the input and the system prompt.
  const start = (): void =>
    call.preCall(input, recover(input), (msgs) =>
      // 4. doCall produces the reply (completing without one is a NoReplyError).
      call.reply(() => agent.doCall(msgs, call.context), deliver, recover(msgs)),
    );
  // 2a. A durable call saves its start (a recovered one: its claim on the run) first;
  // the first call of a fresh agent loads the stored checkpoint before (see `loadFirst`).
  const saveStart = (): void =>
    call.afterSave(durable!.checkpoint(durable!.recovered), start, fail);
  const recovery = owner.recovery;
  if (!durable) start();
  else if (recovery?.fresh && !call.recovering)
    call.afterSave(recovery.loadFirst(), saveStart, fail);
  else saveStart();
}

/** `handleInterrupt`'s reply when `error` is the call's interrupt; else `undefined`. */
function interruptReplyOf(
  error: unknown,
  msgs: Msg[],
  owner: StepsOwner,
): (() => Observable<Msg>) | undefined {
  const interrupt = owner.interrupted;
  const interrupted =
    error instanceof InterruptedError || (interrupt !== undefined && isAbortError(error));
  if (!interrupted) return undefined;
  return () => owner.agent.handleInterrupt(interrupt ?? { source: 'system' }, msgs);
}

/** AgentBase's default reply to an interrupted call (`handleInterrupt`). */
export function interruptedReply(agentName: string, context: InterruptContext): Msg {
  const text = context.message
    ? 'I was interrupted. What would you like me to do next?'
    : 'I noticed that you interrupted me. What can I do for you?';
  return createMsg({ name: agentName, role: 'assistant', content: text });
}
