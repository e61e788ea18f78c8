import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RunAgentInput } from '@ag-ui/core';
import { EventEncoder } from '@ag-ui/encoder';
import { type AgentBase, checkOptions, InvalidArgumentError, type Msg } from '@rxagent/core';
import { agentInputOf, type ResumeInput } from './agentInputOf.js';
import { RequestRejection, readRunAgentInput } from './readRunAgentInput.js';
import { toAgUiEvents } from './toAgUiEvents.js';

/** Returns the agent that serves a run's thread (the same agent for every run of a thread). */
export type GetAgent = (input: RunAgentInput) => AgentBase | Promise<AgentBase>;

/** Options of `agUiHandler`. */
export interface AgUiHandlerOptions {
  /** Largest accepted request body in bytes (default 1 MiB); a larger one is answered 413. */
  readonly maxBodyBytes?: number;
  /** The agent's input for a run that answers approval interrupts (default `asToolDecisions`). */
  readonly resumeInput?: ResumeInput;
  /**
   * After a client disconnects, the agent is interrupted and given this long (default
   * 10,000 ms) to end its call with an interrupt reply before the call is cancelled.
   */
  readonly interruptGraceMs?: number;
}

/** A `node:http` request listener. */
export type RequestHandler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * A `node:http` request handler that runs an agent for a POSTed AG-UI `RunAgentInput` and
 * streams the run's AG-UI events (see `toAgUiEvents`) back as server-sent events.
 *
 * - Anything but POST is answered 405; a body that is not JSON or not a valid
 *   `RunAgentInput` (checked with AG-UI's schema), or that has no new user message, 400 with
 *   a message naming the problem; `getAgent` failing, 500.
 * - The agent keeps its own memory per thread, so only the newest user message is its input
 *   (the history in `messages` is not replayed); resume entries answering `tool_approval`
 *   interrupts become its input through `resumeInput` (see `agentInputOf`).
 * - A client that disconnects before RUN_FINISHED interrupts the agent (`agent.interrupt()`),
 *   so the call ends with an interrupt reply in memory; if it has not ended after
 *   `interruptGraceMs`, the call is cancelled. Every listener and timer is released.
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
  checkOptions(options, ['maxBodyBytes', 'resumeInput', 'interruptGraceMs'], 'agUiHandler');
  const maxBodyBytes = options.maxBodyBytes ?? 1024 * 1024;
  const graceMs = options.interruptGraceMs ?? 10_000;
  return (req, res) => {
    if (req.method !== 'POST') {
      res.setHeader('allow', 'POST');
      reject(res, new RequestRejection(405, 'POST an AG-UI RunAgentInput as JSON.'));
      return;
    }
    void prepare(req, getAgent, maxBodyBytes, options.resumeInput).then(
      (prepared) => {
        if (prepared instanceof RequestRejection) reject(res, prepared);
        else serve(res, prepared, graceMs);
      },
      (error: unknown) => reject(res, new RequestRejection(500, messageOf(error))),
    );
  };
}

interface PreparedRun {
  readonly input: RunAgentInput;
  readonly agent: AgentBase;
  readonly msgs: Msg | Msg[] | undefined;
}

async function prepare(
  req: IncomingMessage,
  getAgent: GetAgent,
  maxBodyBytes: number,
  resumeInput: ResumeInput | undefined,
): Promise<PreparedRun | RequestRejection> {
  const input = await readRunAgentInput(req, maxBodyBytes);
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
  return { input, agent, msgs };
}

function serve(res: ServerResponse, run: PreparedRun, graceMs: number): void {
  // The client may have gone while the body was read or the agent was fetched: run nothing.
  if (res.destroyed || res.socket === null || res.socket.destroyed) return;
  const encoder = new EventEncoder({ accept: 'text/event-stream' });
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
  res.flushHeaders();
  const { input, agent, msgs } = run;
  let ended = false;
  let graceTimer: NodeJS.Timeout | undefined;
  const release = (): void => {
    ended = true;
    clearTimeout(graceTimer);
    res.off('close', onClose);
  };
  const onClose = (): void => {
    if (ended) return;
    // The client went away mid-run: interrupt so the agent ends its call cleanly (memory
    // keeps an interrupt reply), and cancel it if it does not end in time.
    agent.interrupt();
    graceTimer = setTimeout(() => subscription.unsubscribe(), graceMs);
    graceTimer.unref();
  };
  res.on('close', onClose);
  const subscription = toAgUiEvents(agent.stream(msgs), {
    threadId: input.threadId,
    runId: input.runId,
    input,
  }).subscribe({
    next: (event) => {
      if (!res.destroyed && !res.writableEnded) res.write(encoder.encodeSSE(event));
    },
    // toAgUiEvents turns errors into RUN_ERROR, so `error` only guards against the unexpected.
    error: () => {
      release();
      res.destroy();
    },
    complete: () => {
      release();
      if (!res.destroyed && !res.writableEnded) res.end();
    },
  });
  // Unsubscribing (after the grace period) does not complete the Observable: release here too.
  subscription.add(release);
}

function reject(res: ServerResponse, rejection: RequestRejection): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(rejection.status, { 'content-type': 'text/plain; charset=utf-8' });
  res.end(`${rejection.message}\n`);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
