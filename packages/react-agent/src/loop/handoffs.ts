import {
  type Agent,
  assistantMsg,
  checkOptions,
  InvalidArgumentError,
  type JsonObject,
  type Msg,
  sanitizeName,
  type Tool,
  type Toolkit,
  type ToolUseBlock,
  tool,
  toolResults,
} from '@rxagent/core';
import type { FinalStep } from './step.js';
import type { Transcript } from './transcript.js';

/** A handoff target with the description the model reads (default: the agent's own). */
export interface HandoffTarget {
  readonly agent: Agent;
  readonly description?: string;
}

/** What `handoffs` lists: an agent, or an agent with a description. */
export type HandoffOption = Agent | HandoffTarget;

const PARAMETERS: JsonObject = {
  type: 'object',
  properties: {
    reason: {
      type: 'string',
      description: 'Why the conversation goes to that agent, in a few words.',
    },
  },
  additionalProperties: false,
};

/**
 * The handoffs of a ReActAgent: one `transfer_to_<name>` tool per target (parameters
 * `{ reason?: string }`, named in OpenAI's function-name charset), and the final step of a
 * call whose tool batch ran one of them.
 */
export class Handoffs {
  /** The transfer tools, in target order. */
  readonly tools: readonly Tool[];
  /** Transfer tool name → target agent name. */
  readonly #targets = new Map<string, string>();

  /** The handoffs of agent `agentName`; one shared empty instance when there are none. */
  static of(agentName: string, options: readonly HandoffOption[] | undefined): Handoffs {
    if (options === undefined || (Array.isArray(options) && options.length === 0)) return NONE;
    return new Handoffs(agentName, options);
  }

  constructor(
    readonly agentName: string,
    options: readonly HandoffOption[],
  ) {
    const where = `ReActAgent "${agentName}": handoffs`;
    if (!Array.isArray(options)) {
      throw new InvalidArgumentError(
        `${where} must be an array of agents or { agent, description }.`,
      );
    }
    this.tools = options.map((option, index) => {
      const { agent, description } = targetOf(option, `${where}[${index}]`);
      if (agent.name === agentName) {
        throw new InvalidArgumentError(`${where}[${index}]: an agent cannot hand off to itself.`);
      }
      const name = `transfer_to_${sanitizeName(agent.name)}`.slice(0, 64);
      if (this.#targets.has(name)) {
        throw new InvalidArgumentError(
          `${where}[${index}]: "${agent.name}" gives the tool name "${name}", like an earlier target; give the agents distinct names.`,
        );
      }
      this.#targets.set(name, agent.name);
      return transferTool(name, agent.name, description);
    });
  }

  /** `toolkit` extended with the transfer tools (a child: they never leak into `toolkit`). */
  extend(toolkit: Toolkit): Toolkit {
    return this.tools.length === 0 ? toolkit : toolkit.extend(this.tools);
  }

  /**
   * The final step of a call whose batch `calls` transferred (the first successful transfer
   * call wins): its reply, a short note in this agent's name stored after the batch's
   * results, carries `metadata.handoff = { to, reason? }`. `undefined` when none did.
   */
  finalStep(
    calls: readonly ToolUseBlock[],
    results: readonly Msg[],
    transcript: Transcript,
  ): FinalStep | undefined {
    if (this.#targets.size === 0) return undefined;
    const failed = new Set(
      results.flatMap(toolResults).flatMap((result) => (result.isError ? [result.id] : [])),
    );
    const call = calls.find((c) => this.#targets.has(c.name) && !failed.has(c.id));
    if (call === undefined) return undefined;
    const to = this.#targets.get(call.name)!;
    const reason = (call.input as JsonObject)['reason'];
    const handoff = typeof reason === 'string' && reason !== '' ? { to, reason } : { to };
    const text = 'reason' in handoff ? `Handed off to ${to}: ${reason}` : `Handed off to ${to}.`;
    const reply = assistantMsg(text, { name: this.agentName });
    transcript.add(reply);
    return { kind: 'final', reply, reason: 'handoff', metadata: { handoff } };
  }
}

function targetOf(option: HandoffOption, where: string): { agent: Agent; description: string } {
  const agent = isAgent(option) ? option : isAgent(option?.agent) ? option.agent : undefined;
  if (agent === undefined) {
    throw new InvalidArgumentError(`${where} must be an agent or { agent, description? }.`);
  }
  if (!isAgent(option)) checkOptions(option, ['agent', 'description'], where);
  const own = isAgent(option) ? undefined : option.description;
  if (own !== undefined && typeof own !== 'string') {
    throw new InvalidArgumentError(`${where}.description must be a string when given.`);
  }
  return { agent, description: own ?? agent.description };
}

function isAgent(value: unknown): value is Agent {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Agent).name === 'string' &&
    typeof (value as Agent).call === 'function'
  );
}

function transferTool(name: string, target: string, description: string): Tool {
  const about = description ? ` ${target} handles: ${description}` : '';
  return tool({
    name,
    description: `Hand the conversation to the agent "${target}", who then answers the user.${about} Call it alone, when the request is ${target}'s to answer.`,
    parameters: PARAMETERS,
    dedupe: false,
    execute: () => `Transferred to ${target}.`,
  }) as Tool;
}

/** The handoffs of every agent without any: no tools, never a handoff. */
const NONE = new Handoffs('', []);
