import type { Observable } from 'rxjs';
import type { HookEvent, HookEventType } from '../hooks/hookEvent.js';
import type { JsonObject } from '../json.js';
import type { Msg } from '../message/msg.js';
import type { Usage } from '../model/chatModel.js';
import type { UsageByAgent } from '../model/usageByAgent.js';
import type { Agent } from './agent.js';
import type { AgentEvent } from './agentEvent.js';
import type { CallOptions } from './callOptions.js';

/**
 * The room of one call, handed to `doCall` and passed on to every step of it. `signal`
 * aborts on unsubscribe, on `interrupt()` and when `options.signal` aborts: pass it to every
 * model request and tool. `notify` runs the agent's hooks on an event of this call, and
 * `listens` tells whether anyone would receive an event of a type, so a step can skip
 * building events (per-chunk ones above all) that nobody wants.
 */
export interface CallContext {
  readonly callId: string;
  /** The agent running this call. */
  readonly agent: Agent;
  readonly signal: AbortSignal;
  readonly options: CallOptions;
  /** The call's system prompt, as preCall hooks left it. */
  readonly systemPrompt: string;
  /**
   * Adds a model request's token usage to the call's total (`reply.metadata.usage`). With
   * `agentName`, the usage is another agent's (a sub-agent called as a tool): counted in the
   * total and under that name in `reply.metadata.usageByAgent`.
   */
  addUsage(usage: Usage | undefined, agentName?: string): void;
  /** The usage summed so far (the agent's own and its sub-agents'), if any was reported. */
  readonly usage: Usage | undefined;
  /**
   * The usage so far by agent name (this agent's own under its name), once another agent's
   * usage was added; `undefined` while only this agent's own requests counted.
   */
  readonly usageByAgent: UsageByAgent | undefined;
  /**
   * Runs the agent's hooks (and the system hooks) that want `event.type` on `event`, one
   * after another, records a snapshot for `stream()`, and emits the event as the hooks left
   * it. Cold; one value, then completes; errors with a hook's error.
   */
  notify<E extends HookEvent>(event: E): Observable<E>;
  /**
   * Present while the call is streamed: emits a nested agent's event (one with `path`, see
   * `AgentEvent`) on this call's `stream()`, without running this agent's hooks on it.
   */
  readonly forwardEvent?: ((event: AgentEvent) => void) | undefined;
  /** Whether a hook, a `stream()` subscriber or a tap (`options.tap`) receives events of `type` in this call. */
  listens(type: HookEventType): boolean;
  /**
   * The messages `agent.steer()` gave this call since it last asked, in order (empty when
   * none): a subclass takes them right before a model request, stores them and sends them
   * with it. Each is handed out once; their ids go to the reply's `metadata.steered`.
   */
  takeSteered(): Msg[];
  /**
   * Calls `listener` each time `steer()` gives this call messages (after they were added, so
   * `takeSteered()` returns them); returns what removes it. For a subclass that forwards
   * steered messages at once instead of at its next model request (a remote agent).
   */
  onSteer?(listener: () => void): () => void;
  /** Whether the agent is durable: `checkpoint()` saves, and the call may be recovered. */
  readonly durable: boolean;
  /**
   * In a call continued by `recover()`, the progress its last checkpoint recorded (what the
   * subclass gave `checkpoint(progress)`); `undefined` in a fresh call, or when the call
   * stopped before its first step boundary (then it starts over from its input).
   */
  readonly recovered: JsonObject | undefined;
  /**
   * A step boundary of a durable call: saves the agent's `stateDict()` with `progress` (the
   * subclass's JSON record of where the call is, handed back as `recovered` after a crash),
   * one checkpoint (its new sealed segments, then its head). Cold; emits one `undefined` once saved (at once, saving nothing,
   * when the agent is not durable), then completes; errors with the save's error, such as
   * `SessionConflictError` when another process advanced the run: stop the call then.
   */
  checkpoint(progress?: JsonObject): Observable<void>;
}
