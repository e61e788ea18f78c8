import type { Observable } from 'rxjs';
import type { Hook } from './hook.js';
import type { ErrorEvent, HookEvent, HookEventType } from './hookEvent.js';
import { HookRegistry } from './hookRegistry.js';
import { runErrorHooks } from './runErrorHooks.js';
import { runHooks } from './runHooks.js';

/** The hooks of every agent (`AgentBase.addSystemHook`). */
const systemHooks = new HookRegistry();

/**
 * One agent's hooks merged with the system hooks: registration, and dispatch of an event
 * to the hooks that want its type, in priority order.
 */
export class AgentHooks {
  static readonly system = systemHooks;
  readonly #own = new HookRegistry();

  constructor(hooks: readonly Hook[] = []) {
    for (const hook of hooks) this.#own.add(hook);
  }

  /** Registers `hook`; returns a function that removes this registration. */
  add(hook: Hook): () => void {
    return this.#own.add(hook);
  }

  /** Removes every registration of `hook`. */
  remove(hook: Hook): void {
    this.#own.remove(hook);
  }

  /** Whether any hook (own or system) is registered. */
  get any(): boolean {
    return this.#own.merged(systemHooks).length > 0;
  }

  /** The hooks that want events of `type`, in dispatch order (a bound function). */
  readonly forType = (type: HookEventType): readonly Hook[] => this.#own.forType(systemHooks, type);

  /** Runs the hooks that want `event.type` on it; emits the event as they left it. */
  run<E extends HookEvent>(event: E): Observable<E> {
    return runHooks(this.forType(event.type), event);
  }

  /** Runs the error hooks on `event`, each isolated; never errors (a bound function). */
  readonly runError = (event: ErrorEvent): Observable<unknown> =>
    runErrorHooks(this.forType('error'), event);
}
