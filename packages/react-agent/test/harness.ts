import {
  type ChatMessage,
  type JsonObject,
  type Msg,
  type Tool,
  textOf,
  tool,
} from '@rxagent/core';
import {
  type ScriptedReply,
  type StrictOpenAIServer,
  startStrictOpenAIServer,
} from '@rxagent/core/testing';
import { OpenAIChatModel, ReActAgent, type ReActAgentOptions } from '@rxagent/react-agent';
import { lastValueFrom } from 'rxjs';
import { afterEach, expect } from 'vitest';
import { z } from 'zod';

/** A ReActAgent wired to a fresh strict loopback server through the real `openai` SDK. */
export interface Harness {
  readonly server: StrictOpenAIServer;
  readonly agent: ReActAgent;
  readonly model: OpenAIChatModel;
}

const open: StrictOpenAIServer[] = [];

afterEach(async () => {
  // Every test here must have sent only conversations the real API accepts.
  for (const server of open.splice(0)) {
    const rejected = server.rejected.map((r) => r.rejection);
    await server.close();
    expect(rejected).toEqual([]);
  }
});

/** Starts a strict server playing `script` and an agent talking to it. */
export async function harness(
  script: ScriptedReply[],
  options: Partial<ReActAgentOptions> & { stream?: boolean } = {},
): Promise<Harness> {
  const server = await startStrictOpenAIServer({ script });
  open.push(server);
  const { stream = true, ...agentOptions } = options;
  const model = new OpenAIChatModel({
    model: 'test-model',
    baseURL: server.baseURL,
    apiKey: 'test-key',
    stream,
    maxRetries: 2,
    retryBaseDelayMs: 1,
  });
  const agent = new ReActAgent({
    name: 'assistant',
    sysPrompt: 'You are a test assistant.',
    model,
    ...agentOptions,
  });
  return { server, agent, model };
}

/** The wire messages of the server's request `index`. */
export function wireMessages(server: StrictOpenAIServer, index: number): ChatMessage[] {
  const request = server.requests[index];
  if (!request)
    throw new Error(`the server received no request #${index} (got ${server.requests.length})`);
  return request.body['messages'] as unknown as ChatMessage[];
}

/** Runs one call to completion. */
export function run(agent: ReActAgent, input?: Msg | Msg[]): Promise<Msg> {
  return lastValueFrom(agent.call(input));
}

/** A weather tool over a tiny fixed data set; records its calls. */
export function weatherTool(calls: JsonObject[] = []): Tool<{ city: string }> {
  return tool({
    name: 'get_weather',
    description: 'Current weather of a city.',
    parameters: z.object({ city: z.string().describe('City name') }),
    execute: ({ city }) => {
      calls.push({ city });
      return city === 'Paris' ? 'Sunny, 21°C' : `No data for ${city}`;
    },
  });
}

/** Texts of the stored messages, with their roles, for readable assertions. */
export function transcript(messages: readonly Msg[]): string[] {
  return messages.map(
    (msg) =>
      `${msg.role}:${msg.content.map((b) => (b.type === 'text' ? b.text : b.type === 'tool_use' ? `tool_use(${b.name})` : b.type === 'tool_result' ? `tool_result(${b.name})` : b.type)).join('|')}`,
  );
}

export { textOf };
