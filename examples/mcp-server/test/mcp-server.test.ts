import { captureOutput } from '@rxagent/example-kit';
import { describe, expect, it } from 'vitest';
import { main } from '../src/main.js';

describe('mcp-server example (offline)', () => {
  it('serves the agent as an MCP tool to the MCP SDK client, with progress', {
    timeout: 60_000,
  }, async () => {
    const { out, text } = captureOutput();
    const run = await main({ out, env: {} });
    expect(run.tools).toEqual(['researcher']);
    expect(run.answer).toContain('Rayleigh scattering');
    expect(run.progress.length).toBeGreaterThan(5);
    expect(run.progress.join('')).toBe(run.answer);
    expect(text()).toContain('result: The sky looks blue');
  });
});
