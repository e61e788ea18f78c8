import type { ChatMessage, JsonObject, Msg } from '@rxagent/core';
import {
  type ScriptedReply,
  type ScriptedTurn,
  type StrictOpenAIServer,
  startStrictOpenAIServer,
} from '@rxagent/core/testing';
import { OpenAIChatModel } from '@rxagent/react-agent';
import {
  StructuredOutputAgent,
  type StructuredOutputAgentOptions,
} from '@rxagent/structured-output';
import { afterEach, expect } from 'vitest';

/** A StructuredOutputAgent talking to a strict loopback server through the real `openai` SDK. */
export interface Harness {
  readonly server: StrictOpenAIServer;
  readonly agent: StructuredOutputAgent;
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

/** A strict server playing `script` (closed and checked after the test). */
export async function strictServer(script: ScriptedReply[]): Promise<StrictOpenAIServer> {
  const server = await startStrictOpenAIServer({ script });
  open.push(server);
  return server;
}

/** An OpenAIChatModel for `server`, retrying fast. */
export function modelFor(server: StrictOpenAIServer): OpenAIChatModel {
  return new OpenAIChatModel({
    model: 'test-model',
    baseURL: server.baseURL,
    apiKey: 'test-key',
    retryBaseDelayMs: 1,
  });
}

/** Starts a strict server playing `script` and a StructuredOutputAgent talking to it. */
export async function harness(
  script: ScriptedReply[],
  options: Partial<StructuredOutputAgentOptions> = {},
): Promise<Harness> {
  const server = await strictServer(script);
  const agent = new StructuredOutputAgent({
    name: 'extractor',
    sysPrompt: 'Extract what is asked.',
    model: modelFor(server),
    ...options,
  });
  return { server, agent };
}

/** A scripted reply calling `generate_response` with `args`. */
export function respond(args: JsonObject | string, id?: string): ScriptedTurn {
  return {
    toolCalls: [{ ...(id !== undefined && { id }), name: 'generate_response', arguments: args }],
  };
}

/** The body of the server's request `index`. */
export function body(server: StrictOpenAIServer, index: number): JsonObject {
  const request = server.requests[index];
  if (!request)
    throw new Error(`the server received no request #${index} (got ${server.requests.length})`);
  return request.body;
}

/** The wire messages of the server's request `index`. */
export function wireMessages(server: StrictOpenAIServer, index: number): ChatMessage[] {
  return body(server, index)['messages'] as unknown as ChatMessage[];
}

/** The tools of the server's request `index`, by name. */
export function wireTools(server: StrictOpenAIServer, index: number): Map<string, JsonObject> {
  const tools = (body(server, index)['tools'] ?? []) as Array<{ function: JsonObject }>;
  return new Map(tools.map((t) => [String(t.function['name']), t.function]));
}

/** Stored messages as `role:content` lines for readable assertions. */
export function transcript(messages: readonly Msg[]): string[] {
  return messages.map(
    (msg) =>
      `${msg.role}:${msg.content
        .map((b) => (b.type === 'text' ? b.text : 'name' in b ? `${b.type}(${b.name})` : b.type))
        .join('|')}`,
  );
}
