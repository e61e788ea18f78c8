import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  handoffPipeline,
  type JsonObject,
  loadSkills,
  piiGuardrail,
  replyMetadata,
  Toolkit,
  tool,
  userMsg,
} from '@rxagent/core';
import { cacheHitRatio } from '@rxagent/core/testing';
import { lastValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { harness, run } from '../harness.js';
import { CODING_SYS_PROMPT, codingToolkit, sessionCall, sessionScript } from './cacheSession.js';
import { driftsOf, prefixDrift } from './prefixDrift.js';

const bodies = (server: { requests: readonly { body: JsonObject }[] }) =>
  server.requests.map((r) => r.body);

describe('prompt caching over a scripted tool session (strict OpenAI server)', () => {
  it("reads at least 85 % of 30 requests' input tokens from the cache, with no byte drift", async () => {
    const { server, agent } = await harness(sessionScript(30), {
      sysPrompt: CODING_SYS_PROMPT,
      toolkit: codingToolkit(),
      maxIters: 30,
    });
    const reply = await run(agent, userMsg('Make the change and run its tests.'));
    expect(server.requests).toHaveLength(30);
    expect(driftsOf(bodies(server))).toEqual([]);
    const ratio = cacheHitRatio(server.requests);
    expect(ratio).toBeGreaterThanOrEqual(0.85);
    // The reply's usage counts what the server read from its cache.
    const usage = replyMetadata(reply).usage!;
    const cached = server.requests.reduce((n, r) => n + r.cache!.cachedTokens, 0);
    expect(usage.cachedInputTokens).toBe(cached);
    expect(usage.inputTokens).toBe(server.requests.reduce((n, r) => n + r.cache!.inputTokens, 0));
  });

  it('the drift check fails on a changed byte', () => {
    const body = { tools: [{ a: 1 }], messages: [{ role: 'system', content: 'x' }] };
    expect(prefixDrift(body, body)).toBeUndefined();
    expect(prefixDrift(body, { ...body, tools: [{ a: 2 }] })).toMatch(/tools changed/u);
    expect(
      prefixDrift(body, {
        ...body,
        messages: [{ role: 'system', content: 'y' }, { role: 'user' }],
      }),
    ).toMatch(/message 0 changed/u);
  });

  it('keeps every prefix byte-stable with plan: true, across calls', async () => {
    const script = [
      { toolCalls: [{ name: 'create_plan', arguments: { subtasks: ['Read', 'Test'] } }] },
      { toolCalls: [sessionCall(0)] },
      { toolCalls: [{ name: 'update_subtask', arguments: { index: 0, state: 'done' } }] },
      { toolCalls: [sessionCall(2)] },
      { toolCalls: [{ name: 'update_subtask', arguments: { index: 1, state: 'done' } }] },
      { toolCalls: [{ name: 'finish_plan', arguments: {} }] },
      'Done.',
      { toolCalls: [sessionCall(1)] },
      'Done again.',
    ];
    const { server, agent } = await harness(script, {
      sysPrompt: CODING_SYS_PROMPT,
      toolkit: codingToolkit(),
      plan: true,
    });
    await run(agent, userMsg('Plan, then do it.'));
    await run(agent, userMsg('One more search.'));
    expect(server.requests).toHaveLength(9);
    expect(driftsOf(bodies(server))).toEqual([]);
  });

  it('keeps every prefix byte-stable with skills and guardrails, across calls', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'rxagent-cache-skills-'));
    await mkdir(join(dir, 'testing'));
    await writeFile(
      join(dir, 'testing', 'SKILL.md'),
      '---\nname: testing\ndescription: How this repository runs its tests.\n---\nRun run_tests on the package you changed.\n',
    );
    const script = [
      { toolCalls: [{ name: 'load_skill', arguments: { name: 'testing' } }] },
      { toolCalls: [sessionCall(0)] },
      { toolCalls: [sessionCall(2)] },
      'Done.',
      { toolCalls: [sessionCall(1)] },
      'Done again.',
    ];
    const { server, agent } = await harness(script, {
      sysPrompt: CODING_SYS_PROMPT,
      toolkit: codingToolkit(),
      skills: await loadSkills(dir),
      guardrails: [piiGuardrail({ redact: true })],
    });
    await run(agent, userMsg('Change it and test it; mail me at dev@example.com.'));
    await run(agent, userMsg('One more search.'));
    await rm(dir, { recursive: true, force: true });
    expect(server.requests).toHaveLength(6);
    expect(JSON.stringify(server.requests[0]!.body)).toContain('- testing: How this repository');
    expect(driftsOf(bodies(server))).toEqual([]);
  });

  it('keeps the prefix before a compression cut, and every prefix between compressions', async () => {
    const page = tool({
      name: 'read_page',
      description: 'Reads a page.',
      parameters: z.object({ n: z.number() }),
      execute: ({ n }) => `page ${n}: ${'lorem ipsum '.repeat(40)}`,
    });
    const script = Array.from({ length: 11 }, (_, n) => ({
      toolCalls: [{ name: 'read_page', arguments: { n } }],
    }));
    const { server, agent } = await harness([...script, 'Read them all.'], {
      sysPrompt: CODING_SYS_PROMPT,
      toolkit: new Toolkit([page]),
      maxIters: 12,
      context: { maxTokens: 2_600, keepRecent: 4, strategy: 'drop' },
    });
    const compressedAt = new Set<number>();
    agent.addHook({
      onEvent: (event) => {
        if (event.type === 'postCompress') compressedAt.add(server.requests.length);
      },
    });
    await run(agent, userMsg('Read every page.'));
    expect(compressedAt.size).toBeGreaterThan(0);
    expect(driftsOf(bodies(server), compressedAt)).toEqual([]);
  });

  it("keeps each agent's prefixes byte-stable through a handoff", async () => {
    const billing = await harness(
      [{ toolCalls: [sessionCall(1)] }, { toolCalls: [sessionCall(2)] }, 'Refunded.'],
      {
        name: 'billing',
        description: 'Refunds.',
        sysPrompt: CODING_SYS_PROMPT,
        toolkit: codingToolkit(),
      },
    );
    const triage = await harness(
      [
        { toolCalls: [sessionCall(0)] },
        { toolCalls: [{ name: 'transfer_to_billing', arguments: { reason: 'refund' } }] },
      ],
      {
        name: 'triage',
        handoffs: [billing.agent],
        sysPrompt: CODING_SYS_PROMPT,
        toolkit: codingToolkit(),
      },
    );
    await lastValueFrom(handoffPipeline([triage.agent, billing.agent], userMsg('Refund me.')));
    expect(billing.server.requests).toHaveLength(3);
    expect(driftsOf(bodies(triage.server))).toEqual([]);
    expect(driftsOf(bodies(billing.server))).toEqual([]);
  });
});
