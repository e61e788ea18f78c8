import { DEFAULT_HOOK_PRIORITY, type Hook } from './hook.js';
import type { HookEventType } from './hookEvent.js';

interface Entry {
  readonly hook: Hook;
  readonly priority: number;
  readonly seq: number;
}

/** Every hook event type, so a misspelt name in `Hook.events` fails at `add` instead of never matching. */
export const EVENT_TYPES: Readonly<Record<HookEventType, true>> = {
  preCall: true,
  postCall: true,
  preReasoning: true,
  reasoningChunk: true,
  postReasoning: true,
  preActing: true,
  actingChunk: true,
  postActing: true,
  preSummary: true,
  postSummary: true,
  preCompress: true,
  postCompress: true,
  guardrail: true,
  memoryRecall: true,
  memoryWrite: true,
  error: true,
};

/** What `forType` and `merged` answer when neither registry holds a hook. */
const NO_HOOKS: readonly Hook[] = Object.freeze([]);

/**
 * The hooks of `hooks` that want events of `type`: `hooks` itself when all do, and no new
 * array either when none does (an agent makes these lists once per event type).
 */
function wanting(hooks: readonly Hook[], type: HookEventType): readonly Hook[] {
  const wants = (hook: Hook): boolean => hook.events === undefined || hook.events.includes(type);
  let count = 0;
  for (const hook of hooks) if (wants(hook)) count++;
  if (count === hooks.length) return hooks;
  return count === 0 ? NO_HOOKS : hooks.filter(wants);
}

/** One sequence across all registries, so equal priorities keep registration order even across agent and system hooks. */
let nextSeq = 0;

/**
 * An ordered set of hooks. `merged()` combines it with another registry (the system hooks)
 * into one list sorted by priority then registration, and `forType()` keeps the hooks of
 * that list that want one event type; both are cached until either registry changes, so
 * dispatch never sorts or filters.
 */
export class HookRegistry {
  #entries: Entry[] = [];
  #version = 0;
  #cache:
    | {
        readonly own: number;
        readonly other: number;
        readonly hooks: readonly Hook[];
        readonly byType: Map<HookEventType, readonly Hook[]>;
      }
    | undefined;

  /** Bumped on every change. */
  get version(): number {
    return this.#version;
  }

  /**
   * Adds `hook` (a hook added twice runs twice); returns a function that removes this
   * registration only, and is a no-op when called again.
   */
  add(hook: Hook): () => void {
    if (typeof hook?.onEvent !== 'function') {
      throw new TypeError(`A hook needs an onEvent(event) method; got ${JSON.stringify(hook)}.`);
    }
    if (hook.priority !== undefined && !Number.isFinite(hook.priority)) {
      throw new TypeError(
        `Hook "${hook.name ?? 'anonymous'}" has priority ${String(hook.priority)}; use a finite number (default ${DEFAULT_HOOK_PRIORITY}).`,
      );
    }
    if (
      hook.events !== undefined &&
      (!Array.isArray(hook.events) || hook.events.some((type) => typeof type !== 'string'))
    ) {
      throw new TypeError(
        `Hook "${hook.name ?? 'anonymous'}" has events ${JSON.stringify(hook.events)}; use an array of event types such as ['preCall', 'postCall'], or leave it out for every event.`,
      );
    }
    const unknown = hook.events?.find((type) => !Object.hasOwn(EVENT_TYPES, type));
    if (unknown !== undefined) {
      throw new TypeError(
        `Hook "${hook.name ?? 'anonymous'}" names unknown event type "${unknown}"; use some of ${Object.keys(EVENT_TYPES).join(', ')}.`,
      );
    }
    const entry: Entry = { hook, priority: hook.priority ?? DEFAULT_HOOK_PRIORITY, seq: nextSeq++ };
    this.#entries.push(entry);
    this.#version++;
    return () => this.#removeWhere((candidate) => candidate === entry);
  }

  /** Removes every registration of `hook` (no-op when absent). */
  remove(hook: Hook): void {
    this.#removeWhere((entry) => entry.hook === hook);
  }

  /** Removes every hook. */
  clear(): void {
    this.#entries = [];
    this.#version++;
  }

  /** This registry's hooks and `other`'s, in dispatch order. */
  merged(other: HookRegistry): readonly Hook[] {
    if (this.#entries.length === 0 && other.#entries.length === 0) return NO_HOOKS;
    return this.#merged(other).hooks;
  }

  /** The hooks of `merged(other)` that want events of `type`, in dispatch order. */
  forType(other: HookRegistry, type: HookEventType): readonly Hook[] {
    // The common case, an agent without hooks: no merged list, no cache per event type.
    if (this.#entries.length === 0 && other.#entries.length === 0) return NO_HOOKS;
    const merged = this.#merged(other);
    let hooks = merged.byType.get(type);
    if (hooks === undefined) {
      hooks = wanting(merged.hooks, type);
      merged.byType.set(type, hooks);
    }
    return hooks;
  }

  #merged(other: HookRegistry) {
    const cache = this.#cache;
    if (cache && cache.own === this.#version && cache.other === other.#version) return cache;
    const hooks = [...this.#entries, ...other.#entries]
      .sort((a, b) => a.priority - b.priority || a.seq - b.seq)
      .map((entry) => entry.hook);
    this.#cache = { own: this.#version, other: other.#version, hooks, byType: new Map() };
    return this.#cache;
  }

  #removeWhere(matches: (entry: Entry) => boolean): void {
    const before = this.#entries.length;
    this.#entries = this.#entries.filter((entry) => !matches(entry));
    if (this.#entries.length !== before) this.#version++;
  }
}
