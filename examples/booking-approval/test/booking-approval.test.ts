import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  formatMessages,
  type Msg,
  replyMetadata,
  textOf,
  toolResults,
  toolUses,
} from '@rxagent/core';
import { validateChatRequest } from '@rxagent/core/testing';
import { captureOutput } from '@rxagent/example-kit';
import { afterEach, describe, expect, it } from 'vitest';
import { APPROVER, main, pathOf } from '../src/main.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function sessionDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'booking-approval-test-'));
  dirs.push(dir);
  return dir;
}

/** The strict server's own check: every tool call answered, in a valid order. */
function expectValid(messages: readonly Msg[]): void {
  const body = { model: 'scripted', messages: formatMessages(messages) };
  expect(validateChatRequest(body)).toBeUndefined();
}

describe('booking-approval (offline)', () => {
  it('stops the travel agent for the nested payment, and pays once with the edited card', async () => {
    const output = captureOutput();
    const result = await main({
      out: output.out,
      env: {},
      paceMs: 0,
      sessionDir: await sessionDir(),
    });

    expect(replyMetadata(result.stopped).generateReason).toBe('approval_required');
    expect(result.pending.map((call) => call.name)).toEqual(['pay']);
    expect(pathOf(result.pending[0]!)).toEqual(['travel', 'booking']);

    expect(result.payments).toEqual([
      { flight: 'TP433', amountUsd: 182, card: 'corporate-amex', confirmation: 'RX-TP433-1' },
    ]);
    expect(replyMetadata(result.reply).generateReason).not.toBe('approval_required');
    expect(textOf(result.reply)).toContain('RX-TP433-1');
    expect(textOf(result.reply)).toContain('corporate-amex');

    // The booking agent's memory keeps the model's arguments; its result records the edit.
    const booking = result.agents.booking.memory.messages();
    const pay = booking.flatMap(toolUses).find((call) => call.name === 'pay')!;
    expect(pay.input).toMatchObject({ card: 'personal-visa' });
    const decided = booking.find((msg) => toolResults(msg).some((r) => r.id === pay.id))!;
    expect(decided.metadata['decision']).toMatchObject({ decision: 'edited', by: APPROVER });

    expectValid(booking);
    expectValid(result.agents.travel.memory.messages());
    expect(output.text()).toContain('waiting for approval: travel › booking › pay');
  });

  it('denies the nested payment: nothing is paid and both conversations stay valid', async () => {
    const result = await main({
      out: captureOutput().out,
      env: {},
      paceMs: 0,
      sessionDir: await sessionDir(),
      decide: () => 'deny',
    });
    expect(result.payments).toEqual([]);
    expect(textOf(result.reply)).toContain('did not go through');
    expectValid(result.agents.booking.memory.messages());
    expectValid(result.agents.travel.memory.messages());
  });
});
