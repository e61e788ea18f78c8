import { randomUUID } from 'node:crypto';
import {
  type ImageBlock,
  isJsonObject,
  type JsonObject,
  type MemoryStore,
  StateError,
  type StateModule,
  type TextBlock,
  type ToolResultBlock,
} from '@rxagent/core';
import type { OffloadOptions } from './offloadOptions.js';

/** The name of the tool that pages through offloaded results. */
export const READ_RESULT_TOOL = 'read_result';

/** What `ResultOffload.offload` did with a result: what the model sees, and the record for the Msg's metadata. */
export interface OffloadedResult {
  readonly result: ToolResultBlock;
  /** `metadata.offloaded` of the result's Msg. */
  readonly offloaded: { readonly handle: string; readonly chars: number };
}

/**
 * The offloaded tool results of one agent (its `offload` option), part of its state
 * (`offload` in `stateDict()`: `{ version: 1, texts: { [handle]: text }, stored: [handle] }`).
 * Without a store every text stays in the state; with a `MemoryStore` a text stays there only
 * until its write resolved (a checkpoint taken meanwhile still has it, and a failed write
 * keeps it), and `stored` lists the handles to read from the store.
 */
export class ResultOffload implements StateModule {
  readonly overChars: number;
  readonly #store: MemoryStore | undefined;
  readonly #namespace: readonly string[];
  readonly #texts = new Map<string, string>();
  readonly #stored = new Set<string>();
  readonly #writes = new Map<string, Promise<void>>();
  /** The state as last taken for a checkpoint, until something changes (never changed in place). */
  #snapshot: JsonObject | undefined;

  constructor(agentName: string, options: OffloadOptions) {
    this.overChars = options.overChars;
    this.#store = options.store;
    this.#namespace = ['rxagent', 'offload', agentName];
  }

  /**
   * Offloads `result` when its text is longer than `overChars` (never `read_result`'s own):
   * stores the whole text under a new handle and returns the result the model sees, its
   * first `overChars` characters followed by a notice with the size and the handle (images
   * kept after it); `undefined` when the result stays as it is.
   */
  offload(result: ToolResultBlock): OffloadedResult | undefined {
    if (result.name === READ_RESULT_TOOL) return undefined;
    const { text, images } = textOf(result);
    if (text.length <= this.overChars) return undefined;
    const handle = `result-${randomUUID().slice(0, 8)}`;
    this.#texts.set(handle, text);
    this.#snapshot = undefined;
    if (this.#store) this.#write(handle, text);
    const shown = text.slice(0, this.overChars);
    const notice = offloadNotice(handle, text.length, shown.length, this.overChars);
    const output: string | Array<TextBlock | ImageBlock> =
      images.length === 0
        ? `${shown}${notice}`
        : [{ type: 'text', text: `${shown}${notice}` }, ...images];
    return { result: { ...result, output }, offloaded: { handle, chars: text.length } };
  }

  /**
   * `text.slice(offset, offset + length)` of the result stored under `handle` (`offset`
   * default 0, `length` default and at most `overChars`).
   *
   * @throws Error naming what was wrong: an unknown handle, a bad offset or length.
   */
  async read(handle: string, offset = 0, length = this.overChars): Promise<string> {
    if (!Number.isInteger(offset) || offset < 0)
      throw new Error(`read_result: offset must be a whole number ≥ 0, got ${offset}.`);
    if (!Number.isInteger(length) || length < 1 || length > this.overChars)
      throw new Error(
        `read_result: length must be a whole number from 1 to ${this.overChars}, got ${length}.`,
      );
    const text = await this.#text(handle);
    return text.slice(offset, offset + length);
  }

  stateDict(): JsonObject {
    return { version: 1, texts: Object.fromEntries(this.#texts), stored: [...this.#stored] };
  }

  /** `stateDict()`, the same object while nothing changed: a checkpoint need not copy big texts again. */
  checkpointDict(): JsonObject {
    this.#snapshot ??= this.stateDict();
    return this.#snapshot;
  }

  loadStateDict(state: JsonObject): void {
    const { version, texts, stored } = state;
    if (
      version !== 1 ||
      !isJsonObject(texts) ||
      !Object.values(texts).every((t) => typeof t === 'string') ||
      !Array.isArray(stored) ||
      !stored.every((h) => typeof h === 'string')
    )
      throw new StateError(
        'offload state: expected { version: 1, texts: { [handle]: string }, stored: string[] }.',
        'offload',
      );
    this.#texts.clear();
    this.#stored.clear();
    this.#snapshot = undefined;
    for (const handle of stored as string[]) this.#stored.add(handle);
    for (const [handle, text] of Object.entries(texts)) {
      this.#texts.set(handle, text as string);
      // A write a crash interrupted goes out again.
      if (this.#store && !this.#stored.has(handle)) this.#write(handle, text as string);
    }
  }

  async #text(handle: string): Promise<string> {
    const kept = this.#texts.get(handle);
    if (kept !== undefined) return kept;
    if (this.#store && this.#stored.has(handle)) {
      const item = await this.#store.get(this.#namespace, handle);
      const text = item?.value['text'];
      if (typeof text === 'string') return text;
    }
    throw new Error(
      `read_result: no offloaded result has the handle ${JSON.stringify(handle)}; use a handle from an offload notice.`,
    );
  }

  #write(handle: string, text: string): void {
    if (this.#writes.has(handle)) return;
    const write = this.#store!.put(this.#namespace, handle, { text }, { text: '' }).then(
      () => {
        this.#stored.add(handle);
        this.#texts.delete(handle);
        this.#writes.delete(handle);
        this.#snapshot = undefined;
      },
      () => {
        // Kept in the state: nothing is lost, and it is read from there.
        this.#writes.delete(handle);
      },
    );
    this.#writes.set(handle, write);
  }
}

/** The notice after the head of an offloaded result. */
export function offloadNotice(handle: string, chars: number, shown: number, page: number): string {
  return `\n[… output offloaded: ${chars} characters in all, the first ${shown} shown. Read on with read_result({"handle":"${handle}","offset":${shown}}), at most ${page} characters a call …]`;
}

function textOf(result: ToolResultBlock): { text: string; images: ImageBlock[] } {
  const { output } = result;
  if (typeof output === 'string') return { text: output, images: [] };
  const texts: string[] = [];
  const images: ImageBlock[] = [];
  for (const part of output) {
    if (part.type === 'text') texts.push(part.text);
    else images.push(part);
  }
  return { text: texts.join('\n'), images };
}
