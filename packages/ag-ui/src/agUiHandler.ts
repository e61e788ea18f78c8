import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RunAgentInput } from '@ag-ui/core';
import {
  type AgentBase,
  AgentHost,
  type AllowedOrigins,
  checkOptions,
  InvalidArgumentError,
  type Msg,
  OriginPolicy,
} from '@rxagent/core';
import { tap } from 'rxjs';
import { admitRequest } from './admitRequest.js';
import { agentInputOf, type ResumeInput } from './agentInputOf.js';
import { type InputLimits, readRunAgentInput } from './readRunAgentInput.js';
import { RequestRejection, sendRejection } from './requestRejection.js';
import { serveAttach } from './serveAttach.js';
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
 * - Given an `AgentHost` instead of `getAgent`, every AG-UI `threadId` is its own thread of the
 *   host (its own conversation, loaded and saved by the host, one run at a time: a second
 *   run on a busy thread waits its turn), and `GET <mount>?threadId=<id>` follows the run
 *   going on in that thread (`host.attach`): its AG-UI events from its start, then live,
 *   ending with RUN_FINISHED; 204 when nothing runs there. A follower that disconnects
 *   stops following and leaves the run going. The origin rules apply to it too.
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
export function agUiHandler(
  source: GetAgent | AgentHost,
  options: AgUiHandlerOptions = {},
): RequestHandler {
  checkOptions(options, OPTION_KEYS, 'agUiHandler');
  const limits: InputLimits = {
    maxBodyBytes: positiveWhole(options.maxBodyBytes, DEFAULT_MAX_BODY_BYTES, 'maxBodyBytes'),
    maxInputDepth: positiveWhole(options.maxInputDepth, DEFAULT_MAX_INPUT_DEPTH, 'maxInputDepth'),
  };
  const origins = new OriginPolicy(options.allowedOrigins, 'agUiHandler');
  const graceMs = options.interruptGraceMs ?? 10_000;
  const host = source instanceof AgentHost ? source : undefined;
  /** The AG-UI run id of the run going on in each host thread, for followers. */
  const running = new Map<string, string>();
  const runs: RunSource =
    host === undefined
      ? { kind: 'agent', getAgent: source as GetAgent }
      : { kind: 'host', host, running };
  return (req, res) => {
    if (host !== undefined && req.method === 'GET') {
      serveAttach(req, res, host, running, origins);
      return;
    }
    let admitted: boolean;
    try {
      admitted = admitRequest(req, res, origins);
    } catch (error) {
      sendRejection(res, new RequestRejection(500, messageOf(error)));
      return;
    }
    if (!admitted) return;
    prepare(req, runs, limits, options.resumeInput)
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

/** Where runs come from: an agent per thread (`getAgent`), or an AgentHost's threads. */
type RunSource =
  | { readonly kind: 'agent'; readonly getAgent: GetAgent }
  | { readonly kind: 'host'; readonly host: AgentHost; readonly running: Map<string, string> };

async function prepare(
  req: IncomingMessage,
  runs: RunSource,
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
  const { threadId, runId } = input;
  if (runs.kind === 'host') {
    const { host, running } = runs;
    return {
      input,
      msgs,
      // The run is the thread's once its first event comes (before, it may wait its turn).
      stream: () => {
        let started = false;
        return host.stream(threadId, msgs).pipe(
          tap(() => {
            if (started) return;
            started = true;
            running.set(threadId, runId);
          }),
        );
      },
      interrupt: () => host.interrupt(threadId),
      ended: () => {
        if (running.get(threadId) === runId) running.delete(threadId);
      },
    };
  }
  let agent: AgentBase;
  try {
    agent = await runs.getAgent(input);
  } catch (error) {
    return new RequestRejection(
      500,
      `Could not get the agent for thread ${threadId}: ${messageOf(error)}`,
    );
  }
  if (!isAgent(agent)) {
    return new RequestRejection(
      500,
      `Could not get the agent for thread ${threadId}: getAgent returned ${kindOf(agent)}, not an agent.`,
    );
  }
  return { input, msgs, stream: () => agent.stream(msgs), interrupt: () => agent.interrupt() };
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
