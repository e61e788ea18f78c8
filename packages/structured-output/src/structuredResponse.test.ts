import {
  InterruptedError,
  type JsonValue,
  StructuredOutputError,
  textOf,
  userMsg,
  withMetadata,
} from '@rxagent/core';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { z as z3 } from 'zod/v3';
import { isStructuredOutputReminder, reminderMsg } from './structuredOutputReminder.js';
import { responseMsg, responseOf, type StructuredResponse } from './structuredResponse.js';

describe('responseMsg', () => {
  it('is an assistant message whose text is the JSON of the response it carries', () => {
    const msg = responseMsg('bot', { name: 'Ada', tags: ['x'] });

    expect(msg).toMatchObject({
      name: 'bot',
      role: 'assistant',
      metadata: { response: { name: 'Ada', tags: ['x'] } },
    });
    expect(JSON.parse(textOf(msg))).toEqual({ name: 'Ada', tags: ['x'] });
  });
});

describe('responseOf', () => {
  it('returns the response of a structured_output reply', () => {
    const reply = withMetadata(responseMsg('bot', [1, 2]), { generateReason: 'structured_output' });

    expect(responseOf(reply, 'bot')).toEqual([1, 2]);
  });

  it('throws InterruptedError for an interrupted reply', () => {
    const reply = withMetadata(userMsg('stop'), { generateReason: 'interrupted' });

    expect(() => responseOf(reply, 'bot')).toThrow(InterruptedError);
  });

  it('throws StructuredOutputError naming the reason for a reply a hook paused', () => {
    const reply = withMetadata(userMsg('x'), { generateReason: 'tool_calls_stopped' });

    expect(() => responseOf(reply, 'bot')).toThrow(StructuredOutputError);
    expect(() => responseOf(reply, 'bot')).toThrow(/tool_calls_stopped.*call again/);
  });
});

describe('StructuredResponse', () => {
  it('is the output type of a zod v4 or v3 schema and JsonValue for a JSON Schema', () => {
    const v4 = z.object({ n: z.number().default(1) });
    const v3 = z3.object({ s: z3.string() });

    expectTypeOf<StructuredResponse<typeof v4>>().toEqualTypeOf<{ n: number }>();
    expectTypeOf<StructuredResponse<typeof v3>>().toEqualTypeOf<{ s: string }>();
    expectTypeOf<StructuredResponse<{ type: 'object' }>>().toEqualTypeOf<JsonValue>();
  });
});

describe('reminderMsg', () => {
  it('is a user-role message named system, flagged as a structured-output PROMPT reminder', () => {
    const msg = reminderMsg();

    expect(msg).toMatchObject({
      role: 'user',
      name: 'system',
      metadata: { systemFeedback: true, structuredOutputReminder: 'prompt' },
    });
    expect(textOf(msg)).toMatch(/generate_response/);
    expect(isStructuredOutputReminder(msg)).toBe(true);
    expect(isStructuredOutputReminder(userMsg('hi'))).toBe(false);
  });
});
