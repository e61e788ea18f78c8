import { AnthropicChatModel } from '@rxagent/anthropic';
import { cacheHitRatio, startStrictAnthropicServer } from '@rxagent/anthropic/testing';
import * as core from '@rxagent/core';
import { startStrictOpenAIServer } from '@rxagent/core/testing';
import { OpenAIChatModel, ReActAgent } from '@rxagent/react-agent';
import { lastValueFrom } from 'rxjs';
import type { BenchConfig } from '../lib/config.js';
import { atLeast, row, type SuiteResult } from '../lib/result.js';
import { CACHE_SYS_PROMPT, cacheSessionTurns, cacheToolkit } from '../scenario/cacheSession.js';
import { logDecision, logToolkit } from '../scenario/logSession.js';

const TURNS = 30;
const OVER_CHARS = 2_000;

/**
 * Suite: what prompt caching and tool-result offloading save, on the strict servers' cache
 * simulations (deterministic: token counts, not times, so one run is the measurement).
 * - The share of input tokens read from the cache over a scripted 30-turn tool session
 *   (30 model requests in one call), on the OpenAI simulation (automatic prefix caching,
 *   `promptCacheKey`) and on the Anthropic one (`cache: true`, rolling breakpoints).
 * - The input tokens a log-heavy session sends (three ~80 KB service logs, an answer naming
 *   their ERROR lines) without and with `offload: { overChars: 2000 }`, and whether the
 *   answer is the same.
 */
export async function promptCache(_config: BenchConfig): Promise<SuiteResult> {
  const openai = await openAISession();
  const anthropic = await anthropicSession();
  const plain = await logSession(false);
  const offloaded = await logSession(true);
  const fewer = 1 - offloaded.inputTokens / plain.inputTokens;
  const same = offloaded.answer === plain.answer;
  return {
    id: 'promptCache',
    title: 'Prompt caching and offloading (strict servers’ simulations, token counts)',
    rows: [
      row('30-turn session: input read from cache, OpenAI simulation', '%', [openai.ratio * 100]),
      row('30-turn session: input read from cache, Anthropic simulation', '%', [
        anthropic.ratio * 100,
      ]),
      row('30-turn session: input tokens sent (OpenAI estimate)', 'tokens', [openai.inputTokens]),
      row('log session: input tokens without offload', 'tokens', [plain.inputTokens]),
      row('log session: input tokens with offload (2,000 chars)', 'tokens', [
        offloaded.inputTokens,
      ]),
      row('log session: fewer input tokens with offload', '%', [fewer * 100]),
    ],
    budgets: [
      atLeast('cache hit ratio, 30-turn session, OpenAI simulation', openai.ratio * 100, 85, '%'),
      atLeast(
        'cache hit ratio, 30-turn session, Anthropic simulation',
        anthropic.ratio * 100,
        85,
        '%',
      ),
      atLeast(
        'fewer input tokens with offload, log session (same answer)',
        same ? fewer * 100 : 0,
        70,
        '%',
      ),
    ],
    details: {
      openai,
      anthropic,
      logSession: {
        without: { requests: plain.requests, inputTokens: plain.inputTokens },
        with: { requests: offloaded.requests, inputTokens: offloaded.inputTokens },
        sameAnswer: same,
        answer: plain.answer,
      },
    },
  };
}

async function openAISession(): Promise<{
  ratio: number;
  inputTokens: number;
  cachedTokens: number;
}> {
  const server = await startStrictOpenAIServer({ script: cacheSessionTurns(TURNS) });
  try {
    const agent = new ReActAgent({
      name: 'coder',
      sysPrompt: CACHE_SYS_PROMPT,
      model: new OpenAIChatModel({
        model: 'bench-model',
        baseURL: server.baseURL,
        apiKey: 'bench',
        promptCacheKey: 'bench-session',
      }),
      toolkit: cacheToolkit(),
      maxIters: TURNS,
    });
    const reply = await lastValueFrom(
      agent.call(core.userMsg('Make the change and run its tests.')),
    );
    const usage = core.replyMetadata(reply).usage!;
    return {
      ratio: cacheHitRatio(server.requests),
      inputTokens: usage.inputTokens,
      cachedTokens: usage.cachedInputTokens ?? 0,
    };
  } finally {
    await server.close();
  }
}

async function anthropicSession(): Promise<{
  ratio: number;
  inputTokens: number;
  cachedTokens: number;
}> {
  const server = await startStrictAnthropicServer(cacheSessionTurns(TURNS));
  try {
    const agent = new ReActAgent({
      name: 'coder',
      sysPrompt: CACHE_SYS_PROMPT,
      model: new AnthropicChatModel({
        model: 'claude-bench',
        baseURL: server.baseURL,
        apiKey: 'bench',
        cache: true,
      }),
      toolkit: cacheToolkit(),
      maxIters: TURNS,
    });
    const reply = await lastValueFrom(
      agent.call(core.userMsg('Make the change and run its tests.')),
    );
    const usage = core.replyMetadata(reply).usage!;
    return {
      ratio: cacheHitRatio(server.requests),
      inputTokens: usage.inputTokens,
      cachedTokens: usage.cachedInputTokens ?? 0,
    };
  } finally {
    await server.close();
  }
}

async function logSession(
  offload: boolean,
): Promise<{ inputTokens: number; requests: number; answer: string }> {
  const server = await startStrictOpenAIServer({
    script: Array.from({ length: 40 }, () => (request: core.ChatRequest) => logDecision(request)),
  });
  try {
    const agent = new ReActAgent({
      name: 'oncall',
      sysPrompt: 'Find the errors in the service logs.',
      model: new OpenAIChatModel({
        model: 'bench-model',
        baseURL: server.baseURL,
        apiKey: 'bench',
      }),
      toolkit: logToolkit(),
      maxIters: 20,
      ...(offload && { offload: { overChars: OVER_CHARS } }),
    });
    const reply = await lastValueFrom(agent.call(core.userMsg('Which services logged errors?')));
    const inputTokens = server.requests.reduce((n, r) => n + (r.cache?.inputTokens ?? 0), 0);
    return { inputTokens, requests: server.requests.length, answer: core.textOf(reply) };
  } finally {
    await server.close();
  }
}
