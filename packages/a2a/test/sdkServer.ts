import { AgentCard, type Part, Role, TaskState } from '@a2a-js/sdk';
import {
  AgentEvent,
  type AgentExecutor,
  DefaultRequestHandler,
  type ExecutionEventBus,
  InMemoryTaskStore,
  type RequestContext,
} from '@a2a-js/sdk/server';
import { agentCardHandler, jsonRpcHandler, UserBuilder } from '@a2a-js/sdk/server/express';
import { newId } from '@rxagent/core';
import express from 'express';
import { type Loopback, listen } from './loopback.js';

const text = (value: string): Part => ({
  content: { $case: 'text', value },
  mediaType: 'text/plain',
  filename: '',
  metadata: undefined,
});
const data = (value: Record<string, unknown>): Part => ({
  content: { $case: 'data', value },
  mediaType: 'application/json',
  filename: '',
  metadata: undefined,
});

/**
 * A scripted agent written directly on the SDK's `AgentExecutor`, so A2AAgent is tested
 * against a server that is not ours. It answers `heard: <text>` in two streamed chunks;
 * `slow` works until cancelled; `approve` stops input-required with one pending call, and a
 * data part on that task answers `decided: <json>`.
 */
class ScriptedExecutor implements AgentExecutor {
  readonly received: string[] = [];
  readonly canceled: string[] = [];
  readonly #waiting = new Map<string, () => void>();
  #started: () => void = () => undefined;
  /** Resolves when a slow task is working. */
  readonly started = new Promise<void>((resolve) => {
    this.#started = resolve;
  });

  execute = async (context: RequestContext, bus: ExecutionEventBus): Promise<void> => {
    const { taskId, contextId, userMessage } = context;
    bus.publish(
      AgentEvent.task(
        context.task ?? {
          id: taskId,
          contextId,
          status: {
            state: TaskState.TASK_STATE_SUBMITTED,
            message: undefined,
            timestamp: undefined,
          },
          artifacts: [],
          history: [userMessage],
          metadata: undefined,
        },
      ),
    );
    const status = (state: TaskState, parts: Part[] = []) =>
      bus.publish(
        AgentEvent.statusUpdate({
          taskId,
          contextId,
          metadata: undefined,
          status: {
            state,
            timestamp: undefined,
            message:
              parts.length === 0
                ? undefined
                : {
                    messageId: newId(),
                    contextId,
                    taskId,
                    role: Role.ROLE_AGENT,
                    parts,
                    metadata: undefined,
                    extensions: [],
                    referenceTaskIds: [],
                  },
          },
        }),
      );
    const chunk = (value: string, append: boolean, lastChunk: boolean) =>
      bus.publish(
        AgentEvent.artifactUpdate({
          taskId,
          contextId,
          append,
          lastChunk,
          metadata: undefined,
          artifact: {
            artifactId: 'answer',
            name: '',
            description: '',
            parts: [text(value)],
            metadata: undefined,
            extensions: [],
          },
        }),
      );
    const part = userMessage.parts[0]?.content;
    status(TaskState.TASK_STATE_WORKING);
    if (part?.$case === 'data') {
      chunk(`decided: ${JSON.stringify(part.value)}`, false, true);
      status(TaskState.TASK_STATE_COMPLETED);
      return;
    }
    const said = part?.$case === 'text' ? part.value : '';
    this.received.push(said);
    if (said.endsWith('slow')) {
      const canceled = new Promise<void>((resolve) => this.#waiting.set(taskId, resolve));
      this.#started();
      await canceled;
      status(TaskState.TASK_STATE_CANCELED, [text('stopped as asked')]);
      return;
    }
    if (said.endsWith('approve')) {
      status(TaskState.TASK_STATE_INPUT_REQUIRED, [
        text('May I delete a.txt?'),
        data({
          pendingToolCalls: [
            {
              id: 'call_1',
              name: 'delete_file',
              arguments: { path: 'a.txt' },
              needsApproval: true,
            },
          ],
        }),
      ]);
      return;
    }
    const reply = `heard: ${said}`;
    const half = Math.ceil(reply.length / 2);
    chunk(reply.slice(0, half), false, false);
    chunk(reply.slice(half), true, true);
    status(TaskState.TASK_STATE_COMPLETED);
  };

  cancelTask = async (taskId: string): Promise<void> => {
    this.canceled.push(taskId);
    this.#waiting.get(taskId)?.();
  };
}

/** An A2A server built with the SDK's own express handlers, serving `ScriptedExecutor`. */
export async function startSdkServer(): Promise<Loopback & { executor: ScriptedExecutor }> {
  const executor = new ScriptedExecutor();
  let url = '';
  const card = () =>
    AgentCard.fromJSON({
      name: 'sdk-agent',
      description: 'A scripted agent on the A2A SDK.',
      version: '1.0.0',
      capabilities: { streaming: true },
      defaultInputModes: ['text/plain'],
      defaultOutputModes: ['text/plain'],
      skills: [],
      supportedInterfaces: [
        { url: `${url}/a2a`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      ],
    });
  const app = express();
  const handler = new DefaultRequestHandler(card(), new InMemoryTaskStore(), executor);
  app.use(
    '/.well-known/agent-card.json',
    agentCardHandler({ agentCardProvider: async () => card() }),
  );
  app.use(
    '/a2a',
    jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }),
  );
  const loopback = await listen(app);
  url = loopback.url;
  return Object.assign(loopback, { executor });
}
