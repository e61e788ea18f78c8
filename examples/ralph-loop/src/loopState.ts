import { isJsonObject, type JsonFileSession, type JsonObject, StateError } from '@rxagent/core';
import type { CheckResult } from './gate/runGate.js';

/** The session key of the loop. */
export const LOOP_KEY = 'ralph-loop';

/** One gate verdict of the history. */
export interface GateEntry {
  readonly step: number;
  readonly passing: number;
  readonly total: number;
  readonly counted: boolean;
  readonly reason: string;
}

/** Everything a restarted process needs to continue: saved after every step. */
export interface LoopState {
  readonly version: 1;
  /** The last finished step (0 before the first). */
  readonly step: number;
  readonly status: 'running' | 'done';
  /** The checks passing in the last accepted state. */
  readonly passing: readonly string[];
  /** The gate's latest results, which the next step's prompt reports. */
  readonly results: readonly CheckResult[];
  /** The work files of the last accepted state: a restart or a rejected step goes back to them. */
  readonly files: Readonly<Record<string, string>>;
  readonly history: readonly GateEntry[];
  /** `agent.stateDict()`: the conversation so far. */
  readonly agent: JsonObject;
}

/** Saves the loop state (the agent's state inside it). */
export function saveLoopState(session: JsonFileSession, state: LoopState): Promise<void> {
  return session.save(LOOP_KEY, state as unknown as JsonObject);
}

/**
 * The saved loop state, or `undefined` when there is none. Throws `StateError` when the file
 * holds something else, rather than silently starting over and losing the work.
 */
export async function loadLoopState(session: JsonFileSession): Promise<LoopState | undefined> {
  const saved = await session.load(LOOP_KEY);
  if (saved === undefined) return undefined;
  const fix = `delete ${session.pathFor(LOOP_KEY)} or pass --fresh to start over`;
  if (saved['version'] !== 1) {
    throw new StateError(
      `The loop state has version ${String(saved['version'])}, expected 1; ${fix}.`,
      'version',
    );
  }
  for (const key of ['step', 'status', 'passing', 'results', 'files', 'history', 'agent']) {
    if (!(key in saved)) throw new StateError(`The loop state has no "${key}"; ${fix}.`, key);
  }
  if (
    typeof saved['step'] !== 'number' ||
    !isJsonObject(saved['files']) ||
    !isJsonObject(saved['agent'])
  ) {
    throw new StateError(`The loop state is malformed; ${fix}.`, '(root)');
  }
  return saved as unknown as LoopState;
}
