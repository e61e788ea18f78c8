import { userMsg } from '@rxagent/core';
import { ScriptedChatModel, unfrozenPath } from '@rxagent/core/testing';
import { StructuredOutputAgent } from '@rxagent/structured-output';
import { lastValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const Person = z.object({ name: z.string(), tags: z.array(z.object({ label: z.string() })) });

describe('StructuredOutputAgent: Msgs are deeply frozen', () => {
  it('the reply and the compacted memory of a structured call, after a retry', async () => {
    const model = new ScriptedChatModel([
      'Ada, I think.',
      {
        toolCalls: [
          {
            name: 'generate_response',
            arguments: { response: { name: 'Ada', tags: [{ label: 'math' }] } },
          },
        ],
      },
    ]);
    const agent = new StructuredOutputAgent({ name: 'bot', sysPrompt: 'Extract.', model });

    const reply = await lastValueFrom(agent.call(userMsg('Ada'), { structuredOutput: Person }));

    expect(reply.metadata['response']).toEqual({ name: 'Ada', tags: [{ label: 'math' }] });
    expect(unfrozenPath(reply, 'reply')).toBeUndefined();
    const memory = agent.memory.messages();
    expect(memory.length).toBeGreaterThan(1);
    expect(memory.map((msg, index) => unfrozenPath(msg, `memory[${index}]`))).toEqual(
      memory.map(() => undefined),
    );
  });
});
