import {
  type JsonObject,
  replyMetadata,
  StructuredOutputError,
  Toolkit,
  tool,
  toolDecisions,
  toolResults,
  userMsg,
} from '@rxagent/core';
import { ApprovalRequiredError } from '@rxagent/structured-output';
import { lastValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { harness, respond, transcript } from './harness.js';

const Receipt = z.object({ paid: z.boolean(), amount: z.number() });

function payToolkit(paid: JsonObject[]): Toolkit {
  return new Toolkit([
    tool({
      name: 'pay',
      description: 'Pays an amount.',
      parameters: z.object({ amount: z.number() }),
      needsApproval: ({ amount }) => amount > 100,
      execute: ({ amount }) => {
        paid.push({ amount });
        return `paid ${amount}`;
      },
    }),
  ]);
}

const PAY = { toolCalls: [{ id: 'pay1', name: 'pay', arguments: { amount: 500 } }] };

describe('StructuredOutputAgent tool approval', () => {
  it('pauses with approval_required and resumes to a structured response with the same schema', async () => {
    const paid: JsonObject[] = [];
    const { server, agent } = await harness(
      [PAY, respond({ response: { paid: true, amount: 500 } })],
      { toolkit: payToolkit(paid) },
    );

    const paused = await lastValueFrom(
      agent.call(userMsg('Pay 500 and give me a receipt.'), { structuredOutput: Receipt }),
    );
    expect(replyMetadata(paused).generateReason).toBe('approval_required');
    expect(replyMetadata(paused).approvalRequired).toEqual(['pay1']);
    expect(paid).toEqual([]);

    const reply = await lastValueFrom(
      agent.call(toolDecisions({ approve: ['pay1'] }), { structuredOutput: Receipt }),
    );

    expect(reply.metadata['response']).toEqual({ paid: true, amount: 500 });
    expect(replyMetadata(reply).generateReason).toBe('structured_output');
    expect(paid).toEqual([{ amount: 500 }]);
    expect(server.requests).toHaveLength(2);
    expect(transcript(agent.memory.messages())).toEqual([
      'user:Pay 500 and give me a receipt.',
      'assistant:tool_use(pay)',
      'tool:tool_result(pay)',
      expect.stringMatching(/^assistant:/),
    ]);
  });

  it('resumes a denial: the model reads [denied] and still answers in the schema', async () => {
    const paid: JsonObject[] = [];
    const { agent } = await harness([PAY, respond({ response: { paid: false, amount: 0 } })], {
      toolkit: payToolkit(paid),
    });

    await lastValueFrom(agent.call(userMsg('Pay 500.'), { structuredOutput: Receipt }));
    const reply = await lastValueFrom(
      agent.call(toolDecisions({ deny: { pay1: 'not today' } }), { structuredOutput: Receipt }),
    );

    expect(reply.metadata['response']).toEqual({ paid: false, amount: 0 });
    expect(paid).toEqual([]);
    const result = agent.memory.messages().flatMap(toolResults)[0];
    expect(String(result?.output)).toMatch(/^\[denied\].*not today/);
  });

  it('errors callStructured with ApprovalRequiredError naming the pending calls, then resumes', async () => {
    const paid: JsonObject[] = [];
    const { agent } = await harness([PAY, respond({ response: { paid: true, amount: 500 } })], {
      toolkit: payToolkit(paid),
    });

    const error = await lastValueFrom(agent.callStructured(userMsg('Pay 500.'), Receipt)).catch(
      (caught: unknown) => caught,
    );

    expect(error).toBeInstanceOf(ApprovalRequiredError);
    expect(error).toBeInstanceOf(StructuredOutputError);
    const paused = error as ApprovalRequiredError;
    expect(paused.message).toContain('need approval');
    expect(paused.message).toContain('pay (pay1)');
    expect(paused.message).toContain('toolDecisions({ approve: ["pay1"] })');
    expect(paused.message).not.toContain('A hook stopped it');
    expect(paused.pending).toEqual([
      { type: 'tool_use', id: 'pay1', name: 'pay', input: { amount: 500 } },
    ]);
    expect(replyMetadata(paused.reply).generateReason).toBe('approval_required');
    expect(paid).toEqual([]);

    const receipt = await lastValueFrom(
      agent.callStructured(
        toolDecisions({ approve: paused.pending.map((call) => call.id) }),
        Receipt,
      ),
    );
    expect(receipt).toEqual({ paid: true, amount: 500 });
    expect(paid).toEqual([{ amount: 500 }]);
  });
});
