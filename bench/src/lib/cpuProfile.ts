import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';

/**
 * The inspector's CPU profiler, for the profiling tools: profiles only what runs between
 * `start()` and `stopTo(file)` (after a tool's warm-up), like `--cpu-prof` would the whole
 * process. Disabled (no output asked for), both are no-ops, so a tool can time a run
 * without profiling it.
 */
export class CpuProfile {
  readonly #session = new Session();
  readonly #enabled: Promise<unknown>;

  constructor(readonly enabled: boolean) {
    if (enabled) this.#session.connect();
    this.#enabled = enabled ? this.#session.post('Profiler.enable') : Promise.resolve();
  }

  async start(): Promise<void> {
    if (!this.enabled) return;
    await this.#enabled;
    await this.#session.post('Profiler.start');
  }

  /** Stops profiling and writes the `.cpuprofile` to `file`. */
  async stopTo(file: string | undefined): Promise<void> {
    if (!this.enabled || file === undefined) return;
    const { profile } = await this.#session.post('Profiler.stop');
    writeFileSync(file, JSON.stringify(profile));
  }
}
