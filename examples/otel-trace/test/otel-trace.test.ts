import { captureOutput } from '@rxagent/example-kit';
import { describe, expect, it } from 'vitest';
import { main } from '../src/main.js';

describe('otel-trace example (offline)', () => {
  it('prints a trace tree with the agents, model requests and the tool under the workflow', async () => {
    const { out, text } = captureOutput();
    const spans = await main({ out, env: {} });
    const output = text();
    expect(output.split('\n')[0]).toMatch(/^mode: offline/);
    expect(output).toContain(
      'writer: Japan, whose capital is Tokyo, is home to about 124 million people.',
    );

    const tree = output
      .slice(output.indexOf('trace:\n') + 'trace:\n'.length)
      .trim()
      .split('\n')
      .map((line) => line.replace(/\s+\(\d+\.\d ms\).*$/, ''));
    expect(tree).toEqual([
      'workflow',
      '├─ invoke_agent researcher',
      '│  ├─ chat scripted',
      '│  ├─ execute_tool country_facts',
      '│  └─ chat scripted',
      '└─ invoke_agent writer',
      '   └─ chat scripted',
    ]);
    expect(output).toMatch(/execute_tool country_facts {2}\(\d+\.\d ms\) {2}id=call_\d+/);
    expect(spans).toHaveLength(7);
  });
});
