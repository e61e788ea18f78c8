import { ScriptedChatModel } from '@rxagent/core/testing';
import { StructuredOutputAgent } from '@rxagent/structured-output';
import { firstValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const base = { name: 'extractor', sysPrompt: 'Extract.', model: new ScriptedChatModel([]) };

describe('StructuredOutputAgent options', () => {
  it('rejects an unknown key with the right name, its own keys and ReActAgent keys alike', () => {
    expect(() => new StructuredOutputAgent({ ...base, maxRetries: 2 } as never)).toThrow(
      /^StructuredOutputAgent: unknown option "maxRetries" \(did you mean "maxStructuredRetries"\?\)/,
    );
    expect(() => new StructuredOutputAgent({ ...base, tools: [] } as never)).toThrow(
      /did you mean "toolkit"/,
    );
    expect(
      () => new StructuredOutputAgent({ ...base, reminder: 'prompt', maxStructuredRetries: 1 }),
    ).not.toThrow();
  });

  it('rejects an unknown call option of callStructured through the Observable', async () => {
    const agent = new StructuredOutputAgent(base);
    await expect(
      firstValueFrom(
        agent.callStructured('Ada, 36.', z.object({ name: z.string() }), { maxIter: 2 } as never),
      ),
    ).rejects.toThrow(/unknown option "maxIter" \(did you mean "maxIters"\?\)/);
  });
});
