import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RunAgentInput } from '@ag-ui/core';
import { type AgentBase, checkOptions, InvalidArgumentError, type Msg } from '@rxagent/core';
import { admitRequest } from './admitRequest.js';
import { agentInputOf, type ResumeInput } from './agentInputOf.js';
import { type AllowedOrigins, OriginPolicy } from './originPolicy.js';
import { type InputLimits, readRunAgentInput } from './readRunAgentInput.js';
import { RequestRejection, sendRejection } from './requestRejection.js';
import { type PreparedRun, serveRun } from './serveRun.js';

/** Returns the agent that serves a run's thread (the same agent for every run of a thread). */
export type GetAgent = (input: RunAgentInput) => AgentBase | Promise<AgentBase>;

/** The default `maxBodyBytes` of `agUiHandler`: 1 MiB. */
export const DEFAULT_MAX_BODY_BYTES = 1_048_576;

/** The default `maxInputDepth` of `agUiHandler`: 64 levels of nested arrays and objects. */
export const DEFAULT_MAX_INPUT_DEPTH = 64;

/** Options of `agUiHandler`. */
export interface AgUiHandlerOptions {
  /**
   * Largest accepted request body in bytes (default `DEFAULT_MAX_BODY_BYTES`, 1 MiB); a
   * larger one is answered 413 with `Connection: close`.
   */
  readonly maxBodyBytes?: number;
  /**
   * Deepest accepted nesting of arrays and objects in the request body, the body itself
   * being level 1 (default `DEFAULT_MAX_INPUT_DEPTH`, 64); a deeper body (or tool-call
   * arguments nested deeper) is answered 400 naming the limit.
   */
  readonly maxInputDepth?: number;
  /**
   * Browser origins besides the server's own that may run the agent (default none): a
   * list like `['https://app.example.com']`, or a function of the `Origin` header. A
   * request from the server's own page (its Origin's host is the request's `Host`) or
   * without an `Origin` header (not a browser) is always allowed; any other origin gets 403.
   * An allowed other origin gets CORS headers, and its preflight (`OPTIONS`) a 204.
   */
  readonly allowedOrigins?: AllowedOrigins;
  /** The agent's input for a run that answers approval interrupts (default `asToolDecisions`). */
  readonly resumeInput?: ResumeInput;
  /**
   * After a client disconnects, the agent is interrupted and given this long (default
   * 10,000 ms) to end its call with an interrupt reply before the call is cancelled.
   */
  readonly interruptGraceMs?: number;
}

const OPTION_KEYS = [
  'maxBodyBytes',
  'maxInputDepth',
  'allowedOrigins',
  'resumeInput',
  'interruptGraceMs',
] as const;

/** A `node:http` request listener. */
export type RequestHandler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * A `node:http` request handler that runs an agent for a POSTed AG-UI `RunAgentInput` and
 * streams the run's AG-UI events (see `toAgUiEvents`) back as server-sent events.
 *
 * - Only a POST of `application/json` (optionally `; charset=utf-8`) runs anything: other
 *   methods get 405, other content types 415 (a web page can send those cross-site without
 *   a preflight), and a browser page of another origin than `allowedOrigins` admits 403.
 * - A body over `maxBodyBytes` gets 413 (with `Connection: close`); one nested deeper than
 *   `maxInputDepth`, not JSON, not a valid `RunAgentInput` (checked with AG-UI's schema), or
 *   with no new user message, 400 with a message naming the problem; all of this is checked
 *   before the agent is asked for. `getAgent` failing gets 500.
 * - The agent keeps its own memory per thread, so only the newest user message is its input
 *   (the history in `messages` is not replayed); resume entries answering `tool_approval`
 *   interrupts become its input through `resumeInput` (see `agentInputOf`).
 * - A client that disconnects before RUN_FINISHED interrupts the agent (`agent.interrupt()`),
 *   so the call ends with an interrupt reply in memory; if it has not ended after
 *   `interruptGraceMs`, the call is cancelled. Every listener and timer is released.
 *
 * Throws `TypeError` for an unknown option and `InvalidArgumentError` for a bad limit or
 * `allowedOrigins` entry.
 *
 * @example
 * ```ts
 * const agents = new Map<string, ReActAgent>();
 * const handler = agUiHandler((input) => {
 *   let agent = agents.get(input.threadId);
 *   if (!agent) agents.set(input.threadId, (agent = new ReActAgent({ name: 'assistant', sysPrompt, model })));
 *   return agent;
 * });
 * createServer(handler).listen(8000);
 * ```
 */
export function agUiHandler(getAgent: GetAgent, options: AgUiHandlerOptions = {}): RequestHandler {
  checkOptions(options, OPTION_KEYS, 'agUiHandler');
  const limits: InputLimits = {
    maxBodyBytes: positiveWhole(options.maxBodyBytes, DEFAULT_MAX_BODY_BYTES, 'maxBodyBytes'),
    maxInputDepth: positiveWhole(options.maxInputDepth, DEFAULT_MAX_INPUT_DEPTH, 'maxInputDepth'),
  };
  const origins = new OriginPolicy(options.allowedOrigins);
  const graceMs = options.interruptGraceMs ?? 10_000;
  return (req, res) => {
    let admitted: boolean;
    try {
      admitted = admitRequest(req, res, origins);
    } catch (error) {
      sendRejection(res, new RequestRejection(500, messageOf(error)));
      return;
    }
    if (!admitted) return;
    prepare(req, getAgent, limits, options.resumeInput)
      .then(
        (prepared) => {
          if (prepared instanceof RequestRejection) sendRejection(res, prepared);
          else serveRun(res, prepared, graceMs);
        },
        (error: unknown) => sendRejection(res, new RequestRejection(500, messageOf(error))),
      )
      // Nothing above should throw; if it does, a 500 (or a dropped stream), not an
      // unhandled rejection.
      .catch((error: unknown) => sendRejection(res, new RequestRejection(500, messageOf(error))));
  };
}

async function prepare(
  req: IncomingMessage,
  getAgent: GetAgent,
  limits: InputLimits,
  resumeInput: ResumeInput | undefined,
): Promise<PreparedRun | RequestRejection> {
  const input = await readRunAgentInput(req, limits);
  if (input instanceof RequestRejection) return input;
  let msgs: Msg | Msg[] | undefined;
  try {
    msgs = agentInputOf(input, resumeInput);
  } catch (error) {
    if (error instanceof InvalidArgumentError) return new RequestRejection(400, error.message);
    throw error;
  }
  let agent: AgentBase;
  try {
    agent = await getAgent(input);
  } catch (error) {
    return new RequestRejection(
      500,
      `Could not get the agent for thread ${input.threadId}: ${messageOf(error)}`,
    );
  }
  if (!isAgent(agent)) {
    return new RequestRejection(
      500,
      `Could not get the agent for thread ${input.threadId}: getAgent returned ${kindOf(agent)}, not an agent.`,
    );
  }
  return { input, agent, msgs };
}

function isAgent(value: unknown): value is AgentBase {
  const candidate = value as Partial<AgentBase> | null | undefined;
  return typeof candidate?.stream === 'function' && typeof candidate.interrupt === 'function';
}

function kindOf(value: unknown): string {
  if (value === null || typeof value !== 'object') return String(value);
  return `an object (${value.constructor?.name ?? 'no class'})`;
}

function positiveWhole(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (Number.isSafeInteger(value) && value > 0) return value;
  throw new InvalidArgumentError(
    `agUiHandler: ${name} must be a positive whole number (got ${String(value)}).`,
  );
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
