import { DEFAULT_HOOK_PRIORITY, type Hook } from './hook.js';

interface Entry {
  readonly hook: Hook;
  readonly priority: number;
  readonly seq: number;
}

/** One sequence across all registries, so equal priorities keep registration order even across agent and system hooks. */
let nextSeq = 0;

/**
 * An ordered set of hooks. `merged()` combines it with another registry (the system hooks)
 * into one list sorted by priority then registration; the result is cached until either
 * registry changes, so dispatch never sorts.
 */
export class HookRegistry {
  #entries: Entry[] = [];
  #version = 0;
  #cache: { readonly own: number; readonly other: number; readonly hooks: readonly Hook[] } | undefined;

  /** Bumped on every change. */
  get version(): number {
    return this.#version;
  }

  /** Adds `hook`; returns a function that removes it. */
  add(hook: Hook): () => void {
    if (typeof hook?.onEvent !== 'function') {
      throw new TypeError(`A hook needs an onEvent(event) method; got ${JSON.stringify(hook)}.`);
    }
    this.#entries.push({ hook, priority: hook.priority ?? DEFAULT_HOOK_PRIORITY, seq: nextSeq++ });
    this.#version++;
    return () => this.remove(hook);
  }

  /** Removes every registration of `hook` (no-op when absent). */
  remove(hook: Hook): void {
    const before = this.#entries.length;
    this.#entries = this.#entries.filter((entry) => entry.hook !== hook);
    if (this.#entries.length !== before) this.#version++;
  }

  /** Removes every hook. */
  clear(): void {
    this.#entries = [];
    this.#version++;
  }

  /** This registry's hooks and `other`'s, in dispatch order. */
  merged(other: HookRegistry): readonly Hook[] {
    const cache = this.#cache;
    if (cache && cache.own === this.#version && cache.other === other.#version) return cache.hooks;
    const hooks = [...this.#entries, ...other.#entries]
      .sort((a, b) => a.priority - b.priority || a.seq - b.seq)
      .map((entry) => entry.hook);
    this.#cache = { own: this.#version, other: other.#version, hooks };
    return hooks;
  }
}
