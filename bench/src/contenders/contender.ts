/** One way of running the benchmark conversation end to end. */
export interface Contender {
  /** Shown in the tables. */
  readonly label: string;
  /** Runs one conversation from `prompt`; resolves with the final answer text. */
  run(prompt: string, signal?: AbortSignal): Promise<string>;
}

/** The most model calls a hand-written loop makes before giving up (rxagent's default). */
export const MAX_ITERS = 10;
