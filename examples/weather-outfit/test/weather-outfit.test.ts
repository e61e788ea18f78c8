import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startStrictAnthropicServer } from '@rxagent/anthropic/testing';
import { textOf } from '@rxagent/core';
import { startStrictOpenAIServer } from '@rxagent/core/testing';
import { captureOutput } from '@rxagent/example-kit';
import { describe, expect, it } from 'vitest';
import { FORECASTS } from '../src/forecasts.js';
import { main } from '../src/main.js';
import { weatherScript } from '../src/script.js';

describe('weather-outfit example (offline)', () => {
  it('checks the forecast with a tool and answers with its temperatures', async () => {
    const { out, text } = captureOutput();
    const reply = await main({ out, env: {}, paceMs: 0 });
    const tomorrow = FORECASTS['shanghai']![1];
    const output = text();

    expect(output.split('\n')[0]).toMatch(/^mode: offline/);
    expect(output).toContain('→ get_weather {"city":"Shanghai","day":"tomorrow"}');
    expect(output).toContain(
      `→ recommend_outfit {"lowC":${tomorrow.lowC},"highC":${tomorrow.highC}`,
    );
    expect(textOf(reply)).toContain(`${tomorrow.lowC}–${tomorrow.highC} °C`);
    expect(textOf(reply)).toContain('umbrella');
    expect(output).toMatch(/✓ \d+\.\d s · \d+ in \/ \d+ out tokens\n$/);
  });
});

describe('weather-outfit example (live mode, against a local OpenAI-compatible server)', () => {
  it('runs the same program through the OpenAI SDK when OPENAI_BASE_URL is set', async () => {
    const server = await startStrictOpenAIServer({ script: weatherScript() });
    try {
      const { out, text } = captureOutput();
      const env = { OPENAI_BASE_URL: server.baseURL, OPENAI_MODEL: 'local-test' };
      const reply = await main({ out, env, paceMs: 0 });
      const tomorrow = FORECASTS['shanghai']![1];
      expect(text().split('\n')[0]).toBe(`mode: live — model local-test at ${server.baseURL}`);
      expect(textOf(reply)).toContain(`${tomorrow.lowC}–${tomorrow.highC} °C`);
      expect(server.requests).toHaveLength(3);
      expect(server.rejected).toHaveLength(0);
    } finally {
      await server.close();
    }
  });
});

describe('weather-outfit example (live mode, against a local Messages API server)', () => {
  it('runs the same program on AnthropicChatModel when ANTHROPIC_BASE_URL is set', async () => {
    const server = await startStrictAnthropicServer(weatherScript());
    try {
      const { out, text } = captureOutput();
      const env = { ANTHROPIC_BASE_URL: server.baseURL, ANTHROPIC_MODEL: 'claude-test' };
      const reply = await main({ out, env, paceMs: 0 });
      const tomorrow = FORECASTS['shanghai']![1];
      expect(text().split('\n')[0]).toBe(`mode: live — model claude-test at ${server.baseURL}`);
      expect(textOf(reply)).toContain(`${tomorrow.lowC}–${tomorrow.highC} °C`);
      expect(server.requests).toHaveLength(3);
      expect(server.rejected).toHaveLength(0);
      expect(server.requests[0]!.body['system']).toBeDefined();
    } finally {
      await server.close();
    }
  });
});

describe('weather-outfit example with --trace', () => {
  it('writes a trace page with every step and tool call of the run', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'rxagent-weather-trace-'));
    try {
      const { out, text } = captureOutput();
      await main({ out, env: {}, paceMs: 0, trace: join(dir, 'out.html') });
      expect(text()).toContain(`trace page: ${join(dir, 'out.html')}`);
      const html = await readFile(join(dir, 'out.html'), 'utf8');
      expect(html.match(/data-kind="step"/g)).toHaveLength(3);
      const tools = [...html.matchAll(/data-kind="tool-call" data-tool="([^"]+)"/g)].map(
        (m) => m[1],
      );
      expect(tools).toEqual(['get_weather', 'recommend_outfit']);
      expect(html).toMatch(/model request · \d+ ms/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
