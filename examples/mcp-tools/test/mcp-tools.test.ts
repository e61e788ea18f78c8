import { textOf } from '@rxagent/core';
import { startStrictOpenAIServer } from '@rxagent/core/testing';
import { captureOutput } from '@rxagent/example-kit';
import { describe, expect, it } from 'vitest';
import { main } from '../src/main.js';
import { mcpScript } from '../src/script.js';

describe('mcp-tools example (offline)', () => {
  it("answers with the MCP server's real get-sum result", async () => {
    const { out, text } = captureOutput();
    const reply = await main({ out, env: {}, paceMs: 0 });
    const output = text();
    expect(output.split('\n')[0]).toMatch(/^mode: offline/);
    expect(output).toMatch(/mcp: \d+ tools from .*server-everything/);
    expect(output).toContain('→ get-sum {"a":1234,"b":5678}');
    expect(textOf(reply)).toBe('1234 + 5678 = 6912, computed by the MCP server.');
  });
});

describe('mcp-tools example (live mode, against a local OpenAI-compatible server)', () => {
  it('sends the MCP tool schemas to the model and runs the call it makes', async () => {
    const server = await startStrictOpenAIServer({ script: mcpScript() });
    try {
      const { out } = captureOutput();
      const env = { OPENAI_BASE_URL: server.baseURL, OPENAI_MODEL: 'local-test' };
      const reply = await main({ out, env, paceMs: 0 });
      expect(textOf(reply)).toContain('6912');
      const tools = server.requests[0]?.body['tools'] as Array<{ function: { name: string } }>;
      expect(tools.map((tool) => tool.function.name)).toContain('get-sum');
      expect(server.rejected).toHaveLength(0);
    } finally {
      await server.close();
    }
  });
});
