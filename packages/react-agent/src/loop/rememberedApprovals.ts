import { isJsonObject, type JsonObject, StateError, type StateModule } from '@rxagent/core';
import type { Decisions } from './decisions.js';

/** Who approved a tool for the rest of the conversation (`toolDecisions({ remember })`), and when. */
export interface RememberedApproval {
  readonly by?: string;
  readonly at: string;
}

/**
 * The tools a human approved for the rest of an agent's conversation, part of the agent's
 * state (`approvals` in its `stateDict()`, beside memory): `{ version: 1, remembered:
 * { [tool]: { by?, at } } }`. Later calls of these tools that would wait for approval run at
 * once; a `deny` approval rule still refuses them.
 */
export class RememberedApprovals implements StateModule {
  /** Made by the first approval remembered: most conversations remember none. */
  #tools: Map<string, RememberedApproval> | undefined;

  /** Approves `names` from now on, as decided by `by` at `at` (a name approved again keeps its first record). */
  remember(names: readonly string[], by: string | undefined, at: string): void {
    this.#tools ??= new Map();
    for (const name of names) {
      if (!this.#tools.has(name)) this.#tools.set(name, by === undefined ? { at } : { by, at });
    }
  }

  /** The approval of the tool `name`, when it was remembered. */
  get(name: string): RememberedApproval | undefined {
    return this.#tools?.get(name);
  }

  /** The remembered tool names, in the order they were approved. */
  names(): string[] {
    return this.#tools === undefined ? [] : [...this.#tools.keys()];
  }

  stateDict(): JsonObject {
    const remembered: JsonObject = {};
    for (const [name, approval] of this.#tools ?? []) remembered[name] = { ...approval };
    return { version: 1, remembered };
  }

  loadStateDict(state: JsonObject): void {
    if (!isJsonObject(state)) throw new StateError('Approvals state must be an object.', '(root)');
    if (state['version'] !== 1)
      throw new StateError(
        `Approvals state version ${JSON.stringify(state['version'])} is not supported (expected 1).`,
        'version',
      );
    const remembered = state['remembered'];
    if (!isJsonObject(remembered))
      throw new StateError(
        'Approvals state "remembered" must be an object of tool names.',
        'remembered',
      );
    const tools = new Map<string, RememberedApproval>();
    for (const [name, approval] of Object.entries(remembered)) {
      const path = `remembered.${name}`;
      if (!isJsonObject(approval) || typeof approval['at'] !== 'string')
        throw new StateError(`A remembered approval must be { by?, at }.`, path);
      const by = approval['by'];
      if (by !== undefined && typeof by !== 'string')
        throw new StateError('A remembered approval\'s "by" must be a string.', `${path}.by`);
      tools.set(name, by === undefined ? { at: approval['at'] } : { by, at: approval['at'] });
    }
    this.#tools = tools.size === 0 ? undefined : tools;
  }
}

/**
 * Approves from now on the tools a human's decisions remembered (`toolDecisions({ remember
 * })`), those of this agent's toolkit (`isTool`): a sub-agent's tools named there are
 * remembered by that sub-agent, when it resumes.
 */
export function rememberDecided(
  approvals: RememberedApprovals,
  decided: Decisions | undefined,
  isTool: (name: string) => boolean,
): void {
  const remembered = decided?.remember.filter(isTool) ?? [];
  if (decided && remembered.length > 0) approvals.remember(remembered, decided.by, decided.at);
}
