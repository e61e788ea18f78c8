import { type Msg, textOf } from '@rxagent/core';
import type { Scorer } from '../scorer.js';

/** What `matchesSchema` needs of a schema: zod's `safeParse` (zod 3 or 4). */
export interface SafeParseSchema {
  safeParse(value: unknown): {
    success: boolean;
    error?: { issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }> };
  };
}

/**
 * Scores 1 when the reply is valid for `schema`, else 0 with the first issues as the reason.
 * The value checked is a structured-output reply's validated `response` when there is one,
 * else the reply's text parsed as JSON (a ```json fence around it is allowed).
 */
export function matchesSchema(schema: SafeParseSchema): Scorer {
  if (typeof schema?.safeParse !== 'function') {
    throw new TypeError('matchesSchema: pass a zod schema (anything with safeParse).');
  }
  return {
    name: 'matchesSchema',
    score: (_testCase, reply) => {
      const value = replyValue(reply);
      if (!value.ok) return { score: 0, reason: value.reason };
      const result = schema.safeParse(value.value);
      if (result.success) return { score: 1, reason: 'the reply matches the schema' };
      const issues = (result.error?.issues ?? [])
        .slice(0, 3)
        .map((issue) => `${issue.path.map(String).join('.') || '(root)'}: ${issue.message}`);
      return { score: 0, reason: issues.join('; ') || 'the reply does not match the schema' };
    },
  };
}

function replyValue(reply: Msg): { ok: true; value: unknown } | { ok: false; reason: string } {
  if (reply.metadata['generateReason'] === 'structured_output') {
    return { ok: true, value: reply.metadata['response'] };
  }
  const text = textOf(reply).trim();
  const fenced = /^```(?:json)?\s*([\s\S]*?)\s*```$/.exec(text);
  try {
    return { ok: true, value: JSON.parse(fenced ? fenced[1]! : text) };
  } catch {
    return { ok: false, reason: 'the reply is not JSON' };
  }
}
