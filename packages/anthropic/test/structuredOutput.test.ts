import { userMsg } from '@rxagent/core';
import { GENERATE_RESPONSE, StructuredOutputAgent } from '@rxagent/structured-output';
import { lastValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { modelFor, strictServer } from './harness.js';

const Person = z.object({ name: z.string(), age: z.number().int() });

describe('StructuredOutputAgent on the Messages API', () => {
  it('forces the response tool after a plain-text answer and returns the validated response', async () => {
    const server = await strictServer([
      'Ada is 36 years old.',
      {
        toolCalls: [{ name: GENERATE_RESPONSE, arguments: { response: { name: 'Ada', age: 36 } } }],
      },
    ]);
    const agent = new StructuredOutputAgent({
      name: 'extractor',
      sysPrompt: 'Extract what is asked.',
      model: modelFor(server),
    });
    const reply = await lastValueFrom(
      agent.call(userMsg('How old is Ada?'), { structuredOutput: Person }),
    );
    expect(reply.metadata['response']).toEqual({ name: 'Ada', age: 36 });
    expect(server.requests[1]!.body['tool_choice']).toEqual({
      type: 'tool',
      name: GENERATE_RESPONSE,
    });
    // The forced request goes on after the text answer with a user turn, never a prefill.
    const messages = server.requests[1]!.body['messages'] as { role: string; content: unknown }[];
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(messages[2]!.content).toEqual([{ type: 'text', text: 'Continue.' }]);
  });
});
