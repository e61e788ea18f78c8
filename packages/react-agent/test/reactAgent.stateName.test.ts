import {
  type ChatMessage,
  type JsonObject,
  StateError,
  Toolkit,
  textOf,
  tool,
  toolDecisions,
  userMsg,
} from '@rxagent/core';
import { ReActAgent } from '@rxagent/react-agent';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { harness, run, wireMessages } from './harness.js';

function payTool(paid: number[]) {
  return tool({
    name: 'pay',
    description: 'Pays an amount.',
    parameters: z.object({ amount: z.number() }),
    needsApproval: true,
    execute: ({ amount }) => {
      paid.push(amount);
      return `paid ${amount}`;
    },
  });
}

/** An agent paused on an approval, its state saved, and a second agent on the same server. */
async function pausedState() {
  const paid: number[] = [];
  const toolkit = new Toolkit([payTool(paid)]);
  const { server, agent, model } = await harness(
    [{ toolCalls: [{ id: 'c1', name: 'pay', arguments: { amount: 5 } }] }, 'Paid 5.'],
    { toolkit },
  );
  const paused = await run(agent, userMsg('Pay 5.'));
  expect(paused.metadata['generateReason']).toBe('approval_required');
  const saved = JSON.parse(JSON.stringify(agent.stateDict())) as JsonObject;
  const other = new ReActAgent({ name: 'cashier', sysPrompt: 'You pay.', model, toolkit });
  return { server, saved, other, paid };
}

describe('ReActAgent state under another name', () => {
  it('records the agent name and refuses to load under another one, memory untouched', async () => {
    const { saved, other } = await pausedState();
    expect(saved['agentName']).toBe('assistant');
    expect(() => other.loadStateDict(saved)).toThrow(StateError);
    expect(() => other.loadStateDict(saved)).toThrow(
      /cashier: this state was saved by the agent "assistant", not "cashier"/,
    );
    expect(other.memory.messages()).toEqual([]);
  });

  it('with { rename: true }, resumes the approved tool call as its own: call and result are sent', async () => {
    const { server, saved, other, paid } = await pausedState();
    other.loadStateDict(saved, { rename: true });
    expect(
      other.memory
        .messages()
        .filter((m) => m.role !== 'user')
        .map((m) => m.name),
    ).toEqual(['cashier']);
    const reply = await run(other, toolDecisions({ approve: ['c1'] }));
    expect(textOf(reply)).toBe('Paid 5.');
    expect(paid).toEqual([5]);
    const sent = wireMessages(server, 1);
    expect(sent.map((m: ChatMessage) => m.role)).toEqual(['system', 'user', 'assistant', 'tool']);
    expect(sent[2]).toMatchObject({ tool_calls: [{ id: 'c1' }] });
    expect(sent[3]).toMatchObject({ role: 'tool', tool_call_id: 'c1', content: 'paid 5' });
    // Saved again, the state is the new agent's.
    expect(other.stateDict()['agentName']).toBe('cashier');
  });
});
