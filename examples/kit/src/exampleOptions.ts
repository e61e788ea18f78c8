/** What every example's `main` takes; tests capture `out`, pass an empty `env` and turn pacing off. */
export interface ExampleOptions {
  readonly out?: NodeJS.WritableStream;
  readonly env?: NodeJS.ProcessEnv;
  /** Offline only: milliseconds between streamed words (default 15, so streaming is visible). */
  readonly paceMs?: number;
}
