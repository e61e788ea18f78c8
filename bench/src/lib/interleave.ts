/** What one sample measured: named values (e.g. `{ wall, cpu }`). */
export type Sample = Readonly<Record<string, number>>;

/** One series measured in interleaved rounds. */
export interface Series {
  readonly label: string;
  /** Measures one sample (e.g. µs per call over a batch). */
  readonly sample: () => Promise<Sample>;
}

/** The samples of every series, by label, in round order. */
export class Samples {
  readonly #byLabel: Map<string, Sample[]>;

  constructor(byLabel: Map<string, Sample[]>) {
    this.#byLabel = byLabel;
  }

  /** The `key` value of every sample of `label`, in round order. */
  get(label: string, key = 'value'): number[] {
    const samples = this.#byLabel.get(label);
    if (!samples) throw new Error(`no series "${label}"`);
    return samples.map((sample) => {
      const value = sample[key];
      if (value === undefined) throw new Error(`series "${label}" has no "${key}"`);
      return value;
    });
  }

  /** Every sample, for the JSON file. */
  toJSON(): Record<string, Sample[]> {
    return Object.fromEntries(this.#byLabel);
  }
}

/**
 * Measures `series` in `rounds` rounds, each series once per round, so slow drifts of the
 * machine (GC, thermal, other processes) hit all series alike (A B C A B C ...). The order
 * rotates each round so no series always runs right after the same one. `warmup` rounds run
 * first and are discarded. Samples stay in round order, so ratios can be taken pair by pair.
 */
export async function interleave(
  series: readonly Series[],
  rounds: number,
  warmup = 1,
): Promise<Samples> {
  for (let w = 0; w < warmup; w++) for (const s of series) await s.sample();
  const samples = new Map<string, Sample[]>(series.map((s) => [s.label, []]));
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < series.length; k++) {
      const s = series[(k + round) % series.length]!;
      samples.get(s.label)!.push(await s.sample());
    }
  }
  return new Samples(samples);
}
