import { AnthropicChatModel, type AnthropicChatModelOptions } from '@rxagent/anthropic';
import {
  type AnthropicScriptedReply,
  type StrictAnthropicServer,
  startStrictAnthropicServer,
} from '@rxagent/anthropic/testing';
import { afterEach, expect } from 'vitest';

const open: StrictAnthropicServer[] = [];

afterEach(async () => {
  // Every test here must have sent only requests the real API accepts, unless it says so.
  for (const { server, rejections } of opened.splice(0)) {
    const rejected = server.rejected.map((r) => r.rejection);
    await server.close();
    expect(rejected).toHaveLength(rejections);
  }
  open.length = 0;
});

const opened: { server: StrictAnthropicServer; rejections: number }[] = [];

/** A strict server playing `script`, closed after the test; `rejections` 400s are expected. */
export async function strictServer(
  script: AnthropicScriptedReply[],
  rejections = 0,
): Promise<StrictAnthropicServer> {
  const server = await startStrictAnthropicServer(script);
  opened.push({ server, rejections });
  return server;
}

/** An AnthropicChatModel for `server`, retrying fast. */
export function modelFor(
  server: StrictAnthropicServer,
  options: AnthropicChatModelOptions = {},
): AnthropicChatModel {
  return new AnthropicChatModel({
    model: 'claude-test',
    baseURL: server.baseURL,
    apiKey: 'test-key',
    retryBaseDelayMs: 1,
    ...options,
  });
}
