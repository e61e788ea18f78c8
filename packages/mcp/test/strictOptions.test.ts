import { McpToolset } from '@rxagent/mcp';
import { describe, expect, it } from 'vitest';

describe('McpToolset.connect options', () => {
  it('rejects an unknown option before starting anything', async () => {
    await expect(
      McpToolset.connect({ command: 'definitely-not-a-command' }, { timeout: 5 } as never),
    ).rejects.toThrow(
      /^McpToolset\.connect\(\): unknown option "timeout" \(did you mean "timeoutMs"\?\)/,
    );
  });

  it('rejects an unknown key of a stdio or HTTP server', async () => {
    await expect(
      McpToolset.connect({ command: 'definitely-not-a-command', arg: ['x'] } as never),
    ).rejects.toThrow(/server: unknown option "arg" \(did you mean "args"\?\)/);
    await expect(
      McpToolset.connect({ url: 'http://127.0.0.1:1/mcp', header: {} } as never),
    ).rejects.toThrow(/server: unknown option "header" \(did you mean "headers"\?\)/);
  });
});
