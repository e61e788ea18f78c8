import { InvalidArgumentError, StateError } from '../errors.js';
import { isJsonObject, type JsonObject } from '../json.js';
import { STATE_VERSION, type StateModule } from './stateModule.js';
import { AGENT_NAME_KEY } from './stateOwner.js';

/**
 * The nested state of one agent: modules registered by key, captured together as
 * `{ version, agentName, ...modules }` and restored all-or-nothing.
 */
export class StateRegistry {
  readonly #modules = new Map<string, StateModule>();

  constructor(private readonly owner: string) {}

  /** Registers `module` under `key` (`version` and `agentName` are reserved). */
  register(key: string, module: StateModule): void {
    if (key === 'version' || key === AGENT_NAME_KEY)
      throw new InvalidArgumentError(`"${key}" is reserved in a state dict.`);
    this.#modules.set(key, module);
  }

  /** Every module's state under its key, plus the format version and the agent's name. */
  stateDict(): JsonObject {
    const state: JsonObject = { version: STATE_VERSION, [AGENT_NAME_KEY]: this.owner };
    for (const [key, module] of this.#modules) state[key] = module.stateDict();
    return state;
  }

  /** `stateDict()` as a durable checkpoint takes it (see `StateModule.checkpointDict`). */
  checkpointDict(): JsonObject {
    const state: JsonObject = { version: STATE_VERSION, [AGENT_NAME_KEY]: this.owner };
    for (const [key, module] of this.#modules)
      state[key] = module.checkpointDict?.() ?? module.stateDict();
    return state;
  }

  /**
   * Restores `state`; a module whose key the state omits is left as it is. Throws a
   * `StateError` whose `path` names the bad part (wrong version, unknown key, a part a module
   * rejects), after putting every module back as it was.
   */
  load(state: JsonObject): void {
    if (!isJsonObject(state))
      throw new StateError(`${this.owner}: state must be a JSON object.`, '');
    if (state['version'] !== STATE_VERSION) {
      throw new StateError(
        `${this.owner}: state version ${JSON.stringify(state['version'])} is not supported (expected ${STATE_VERSION}).`,
        'version',
      );
    }
    for (const [key, part] of Object.entries(state)) {
      if (key === 'version' || key === AGENT_NAME_KEY) continue;
      if (!this.#modules.has(key)) {
        throw new StateError(
          `${this.owner}: state has "${key}", which this agent does not register.`,
          key,
        );
      }
      if (!isJsonObject(part))
        throw new StateError(`${this.owner}: state.${key} must be an object.`, key);
    }
    const backup = this.stateDict();
    let loading = '';
    try {
      for (const [key, module] of this.#modules) {
        const part = state[key];
        if (part === undefined) continue;
        loading = key;
        module.loadStateDict(part as JsonObject);
      }
    } catch (error) {
      for (const [key, module] of this.#modules) module.loadStateDict(backup[key] as JsonObject);
      throw this.#errorAt(loading, error);
    }
  }

  /** Re-roots a module's load failure at `key`, so the path names the part of the agent's state. */
  #errorAt(key: string, error: unknown): StateError {
    if (error instanceof StateError) {
      const path =
        error.path === '' ? key : `${key}${error.path.startsWith('[') ? '' : '.'}${error.path}`;
      return new StateError(`${this.owner}: state.${key}: ${error.message}`, path, {
        cause: error,
      });
    }
    const reason = error instanceof Error ? error.message : String(error);
    return new StateError(
      `${this.owner}: state.${key} could not be loaded (${reason}); load a state saved by stateDict() of the same kind of agent.`,
      key,
      { cause: error },
    );
  }
}
