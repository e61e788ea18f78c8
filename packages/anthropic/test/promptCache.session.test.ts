import { type AnthropicScriptedReply, cacheHitRatio } from '@rxagent/anthropic/testing';
import { type JsonObject, replyMetadata, Toolkit, tool, userMsg } from '@rxagent/core';
import { ReActAgent } from '@rxagent/react-agent';
import { lastValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { modelFor, strictServer } from './harness.js';

/** A system prompt of about 1,200 tokens. */
const SYS_PROMPT = Array.from(
  { length: 40 },
  (_, i) =>
    `Rule ${i + 1}: read the relevant files before changing them, keep each change small, run the tests of what you touched, and explain in one sentence why the change is needed.`,
).join('\n');

const lines = (topic: string, count: number): string =>
  Array.from(
    { length: count },
    (_, i) =>
      `${topic}:${i + 1}: export function step${i}(input: number) { return input * ${i + 2}; }`,
  ).join('\n');

const toolkit = (): Toolkit =>
  new Toolkit([
    tool({
      name: 'read_file',
      description: 'Reads a file of the repository and returns its text.',
      parameters: z.object({ path: z.string() }),
      execute: ({ path }) => lines(path, 12),
    }),
    tool({
      name: 'run_tests',
      description: 'Runs the tests whose name matches a filter and returns their report.',
      parameters: z.object({ filter: z.string() }),
      execute: ({ filter }) => `${lines(filter, 4)}\nTests: 8 passed`,
    }),
  ]);

/** 29 replies that each call a tool (every fifth calls two), then an answer. */
function script(turns: number): AnthropicScriptedReply[] {
  const out: AnthropicScriptedReply[] = [];
  for (let turn = 0; turn < turns - 1; turn++) {
    const read = { name: 'read_file', arguments: { path: `src/file${turn}.ts` } };
    const test = { name: 'run_tests', arguments: { filter: `suite${turn}` } };
    out.push({ text: `Step ${turn + 1}.`, toolCalls: turn % 5 === 4 ? [read, test] : [read] });
  }
  out.push('All done.');
  return out;
}

/** The bytes of a body the cache compares: tools, system and messages without cache_control. */
function prefixOf(body: JsonObject): string[] {
  const strip = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(strip);
    if (value === null || typeof value !== 'object') return value;
    const { cache_control: _, ...rest } = value as JsonObject;
    return Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, strip(v)]));
  };
  const messages = (body['messages'] as JsonObject[]).flatMap((m) =>
    (m['content'] as JsonObject[]).map((block) =>
      JSON.stringify({ role: m['role'], block: strip(block) }),
    ),
  );
  return [JSON.stringify(strip(body['tools'])), JSON.stringify(strip(body['system'])), ...messages];
}

describe('AnthropicChatModel cache: true over a scripted 30-turn tool session', () => {
  it('reads at least 85 % of input tokens from the cache, within 4 breakpoints, with no byte drift', async () => {
    const server = await strictServer(script(30));
    const agent = new ReActAgent({
      name: 'coder',
      sysPrompt: SYS_PROMPT,
      model: modelFor(server, { cache: true }),
      toolkit: toolkit(),
      maxIters: 30,
    });
    const reply = await lastValueFrom(agent.call(userMsg('Make the change and test it.')));
    expect(server.requests).toHaveLength(30);
    const ratio = cacheHitRatio(server.requests);
    expect(ratio).toBeGreaterThanOrEqual(0.85);
    // Every request extends the previous one: no block before the new turns changed.
    for (let at = 1; at < server.requests.length; at++) {
      const before = prefixOf(server.requests[at - 1]!.body);
      const after = prefixOf(server.requests[at]!.body);
      expect(after.slice(0, before.length)).toEqual(before);
    }
    const usage = replyMetadata(reply).usage!;
    const cached = server.requests.reduce((n, r) => n + r.cache!.cachedTokens, 0);
    expect(usage.cachedInputTokens).toBe(cached);
    expect(usage.cacheReadTokens).toBe(cached);
  });

  it('rolls the message breakpoints forward: the last block, and where the previous request ended', async () => {
    const server = await strictServer(script(3));
    const agent = new ReActAgent({
      name: 'coder',
      sysPrompt: SYS_PROMPT,
      model: modelFor(server, { cache: true }),
      toolkit: toolkit(),
    });
    await lastValueFrom(agent.call(userMsg('Go.')));
    const marked = (body: JsonObject): string[] => {
      const out: string[] = [];
      const mark = (blocks: JsonObject[], path: string) => {
        for (const [i, block] of blocks.entries())
          if (block['cache_control']) out.push(`${path}.${i}`);
      };
      mark(body['tools'] as JsonObject[], 'tools');
      mark(body['system'] as JsonObject[], 'system');
      for (const [i, m] of (body['messages'] as JsonObject[]).entries())
        mark(m['content'] as JsonObject[], `messages.${i}`);
      return out;
    };
    expect(marked(server.requests[0]!.body)).toEqual(['tools.1', 'system.0', 'messages.0.0']);
    expect(marked(server.requests[1]!.body)).toEqual([
      'tools.1',
      'system.0',
      'messages.0.0',
      'messages.2.0',
    ]);
    expect(marked(server.requests[2]!.body)).toEqual([
      'tools.1',
      'system.0',
      'messages.2.0',
      'messages.4.0',
    ]);
    expect(server.requests[2]!.cache!.cachedTokens).toBeGreaterThan(0);
  });
});
