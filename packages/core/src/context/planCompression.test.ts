import { describe, expect, it } from 'vitest';
import type { ContentBlock, ToolResultBlock } from '../message/contentBlock.js';
import { assistantMsg, createMsg, type Msg, userMsg } from '../message/msg.js';
import { formatMessages } from '../model/formatMessages.js';
import { validateChatRequest } from '../testing/validateChatRequest.js';
import { applyCompression } from './applyCompression.js';
import { summaryMsg } from './compressedMsg.js';
import { cutPoints, planCompression, withSummary } from './planCompression.js';

/** mulberry32: a small seeded generator, so every run checks the same conversations. */
function rng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const use = (id: string): ContentBlock => ({ type: 'tool_use', id, name: 'lookup', input: { id } });
const res = (id: string): ToolResultBlock => ({
  type: 'tool_result',
  id,
  name: 'lookup',
  output: `result ${id}`,
});
const toolMsg = (...ids: string[]) =>
  createMsg({ name: 'bot', role: 'tool', content: ids.map(res) });

/**
 * A random conversation the agent could hold in memory before a reasoning step: user turns,
 * feedback, answers, and tool rounds whose results come one per tool message, all in one,
 * or (resumed after a stop) in a user message, maybe after an earlier summary.
 */
function conversation(random: () => number): Msg[] {
  const pick = (n: number) => Math.floor(random() * n);
  const msgs: Msg[] = [];
  let calls = 0;
  if (random() < 0.2)
    msgs.push(summaryMsg('Earlier work.', { count: 9, tokensBefore: 900, tokensAfter: 90 }));
  const turns = 1 + pick(12);
  for (let turn = 0; turn < turns; turn++) {
    msgs.push(userMsg(`question ${turn}`));
    if (random() < 0.15) msgs.push(userMsg('[Judge feedback] more', { name: 'system' }));
    const rounds = pick(4);
    for (let round = 0; round < rounds; round++) {
      const ids = Array.from({ length: 1 + pick(3) }, () => `call_${++calls}`);
      const blocks: ContentBlock[] = [];
      if (random() < 0.3) blocks.push({ type: 'thinking', thinking: 'hmm' });
      if (random() < 0.5) blocks.push({ type: 'text', text: 'Let me look.' });
      msgs.push(assistantMsg([...blocks, ...ids.map(use)], { name: 'bot' }));
      const layout = pick(3);
      if (layout === 0) for (const id of ids) msgs.push(toolMsg(id));
      else if (layout === 1) msgs.push(toolMsg(...ids));
      else {
        msgs.push(toolMsg(ids[0]!));
        if (ids.length > 1)
          msgs.push(
            createMsg({
              name: 'user',
              role: 'user',
              content: [...ids.slice(1).map(res), { type: 'text', text: 'go on' }],
            }),
          );
      }
    }
    if (random() < 0.8) msgs.push(assistantMsg(`answer ${turn}`, { name: 'bot' }));
  }
  return msgs;
}

function wireProblem(msgs: readonly Msg[]): string | undefined {
  const messages = formatMessages(msgs, { systemPrompt: 'You help.', selfName: 'bot' });
  return validateChatRequest({ model: 'm', messages });
}

/** Whether every tool call in `msgs` has its results in `msgs`, and every result its call. */
function pairsKeptTogether(msgs: readonly Msg[]): boolean {
  const calls = new Set<string>();
  const results = new Set<string>();
  for (const msg of msgs)
    for (const block of msg.content) {
      if (block.type === 'tool_use') calls.add(block.id);
      if (block.type === 'tool_result') results.add(block.id);
    }
  return [...calls].every((id) => results.has(id)) && [...results].every((id) => calls.has(id));
}

const marker = summaryMsg('Summary.', { count: 1, tokensBefore: 0, tokensAfter: 0 });

describe('planCompression', () => {
  it('keeps the newest keepRecent messages and leaves a valid, unsplit conversation (1,000 random conversations)', () => {
    const random = rng(20_261_201);
    let planned = 0;
    for (let sample = 0; sample < 1_000; sample++) {
      const msgs = conversation(random);
      expect(wireProblem(msgs)).toBeUndefined();
      const keepRecent = Math.floor(random() * 9);
      const plan = planCompression(msgs, { keepRecent });
      if (plan === undefined) {
        // No cut was possible: check that by brute force.
        for (let cut = 1; cut <= msgs.length - keepRecent; cut++) {
          const kept = msgs.slice(cut);
          const valid =
            pairsKeptTogether(msgs.slice(0, cut)) &&
            pairsKeptTogether(kept) &&
            kept[0]?.role !== 'tool';
          expect(valid, `cut ${cut} of ${msgs.length} was possible`).toBe(false);
        }
        continue;
      }
      planned++;
      expect([...plan.replaced, ...plan.kept]).toEqual(msgs);
      expect(plan.replaced.length).toBeGreaterThan(0);
      expect(plan.kept.length).toBeGreaterThanOrEqual(keepRecent);
      expect(plan.kept.slice(plan.kept.length - keepRecent)).toEqual(
        msgs.slice(msgs.length - keepRecent),
      );
      expect(pairsKeptTogether(plan.kept)).toBe(true);
      expect(pairsKeptTogether(plan.replaced)).toBe(true);
      expect(wireProblem([marker, ...plan.kept])).toBeUndefined();
      // What the agent stores: the marker in place of the prefix, later messages kept.
      const later = userMsg('arrived meanwhile');
      const next = applyCompression([...msgs, later], plan.replaced, marker);
      expect(next).toEqual([marker, ...plan.kept, later]);
      expect(wireProblem(next!)).toBeUndefined();
    }
    expect(planned).toBeGreaterThan(500);
  });

  it('replaces the fewest messages that bring the count under the target', () => {
    const random = rng(7);
    for (let sample = 0; sample < 300; sample++) {
      const msgs = conversation(random);
      const countKept = (kept: readonly Msg[]) => kept.length * 10;
      const targetTokens = Math.floor(random() * msgs.length) * 10;
      const plan = planCompression(msgs, { keepRecent: 2, targetTokens, countKept });
      const cuts = cutPoints(msgs).filter((cut) => cut <= msgs.length - 2);
      if (cuts.length === 0) {
        expect(plan).toBeUndefined();
        continue;
      }
      const fitting = cuts.filter((cut) => countKept(msgs.slice(cut)) <= targetTokens);
      const expected = fitting[0] ?? cuts[cuts.length - 1];
      expect(plan!.replaced.length).toBe(expected);
    }
  });

  it('replaces all it may when no target is given', () => {
    const msgs = [userMsg('a'), assistantMsg('b'), userMsg('c'), assistantMsg('d')];
    expect(planCompression(msgs, { keepRecent: 1 })).toEqual({
      replaced: msgs.slice(0, 3),
      kept: msgs.slice(3),
      summaryAt: 0,
    });
  });

  it('moves the cut before a tool call whose results would otherwise be split off', () => {
    const msgs = [
      userMsg('q'),
      assistantMsg([use('c1'), use('c2')], { name: 'bot' }),
      toolMsg('c1'),
      toolMsg('c2'),
      assistantMsg('done', { name: 'bot' }),
    ];
    // keepRecent 2 would start the kept part at the second tool result.
    expect(planCompression(msgs, { keepRecent: 2 })?.replaced).toEqual(msgs.slice(0, 1));
    expect(planCompression(msgs, { keepRecent: 1 })?.replaced).toEqual(msgs.slice(0, 4));
  });

  it('returns undefined when keepRecent keeps everything or only a tool round precedes it', () => {
    const msgs = [assistantMsg([use('c1')], { name: 'bot' }), toolMsg('c1'), userMsg('q')];
    expect(planCompression(msgs, { keepRecent: 3 })).toBeUndefined();
    expect(planCompression(msgs, { keepRecent: 2 })).toBeUndefined();
    expect(planCompression(msgs, { keepRecent: 1 })?.replaced).toHaveLength(2);
    expect(planCompression([], { keepRecent: 0 })).toBeUndefined();
  });

  it('keeps six messages by default and rejects a keepRecent that is not a whole number', () => {
    const msgs = Array.from({ length: 10 }, (_, i) => userMsg(`m${i}`));
    expect(planCompression(msgs)?.kept).toHaveLength(6);
    expect(() => planCompression(msgs, { keepRecent: -1 })).toThrow(/keepRecent/);
    expect(() => planCompression(msgs, { keepRecent: 1.5 })).toThrow(/keepRecent/);
  });
});

describe('planCompression with pinned messages', () => {
  it('never replaces the pinned question and counts keepRecent after it (1,000 random conversations)', () => {
    const random = rng(20_261_202);
    let planned = 0;
    let afterQuestion = 0;
    for (let sample = 0; sample < 1_000; sample++) {
      const msgs = conversation(random);
      const questions = msgs.filter((m) => m.role === 'user' && m.name === 'user');
      const question = questions[Math.floor(random() * questions.length)]!;
      const at = msgs.indexOf(question);
      const keepRecent = Math.floor(random() * 5);
      const plan = planCompression(msgs, { keepRecent, pinned: [question.id] });
      if (plan === undefined) continue;
      planned++;
      expect(plan.replaced).not.toContain(question);
      expect(plan.kept).toContain(question);
      expect([...plan.replaced, ...plan.kept].map((m) => m.id).sort()).toEqual(
        msgs.map((m) => m.id).sort(),
      );
      const after = msgs.slice(at + 1);
      const keptAfter = Math.min(keepRecent, after.length);
      expect(plan.kept.slice(plan.kept.length - keptAfter)).toEqual(
        after.slice(after.length - keptAfter),
      );
      if (plan.replaced.some((m) => msgs.indexOf(m) > at)) afterQuestion++;
      expect(pairsKeptTogether(plan.kept)).toBe(true);
      expect(pairsKeptTogether(plan.replaced)).toBe(true);
      const next = withSummary(plan, marker);
      expect(wireProblem(next)).toBeUndefined();
      const later = userMsg('arrived meanwhile');
      expect(applyCompression([...msgs, later], plan.replaced, marker)).toEqual([...next, later]);
    }
    expect(planned).toBeGreaterThan(500);
    expect(afterQuestion).toBeGreaterThan(50);
  });

  it('replaces the oldest steps after the question, the summary following it', () => {
    const question = userMsg('Find the price');
    const msgs = [
      question,
      assistantMsg([use('c1')], { name: 'bot' }),
      toolMsg('c1'),
      assistantMsg([use('c2')], { name: 'bot' }),
      toolMsg('c2'),
      assistantMsg([use('c3')], { name: 'bot' }),
      toolMsg('c3'),
    ];
    const plan = planCompression(msgs, { keepRecent: 2, pinned: [question.id] })!;
    expect(plan.replaced).toEqual(msgs.slice(1, 5));
    expect(withSummary(plan, marker)).toEqual([question, marker, ...msgs.slice(5)]);
    // Without the pin the question would go first.
    expect(planCompression(msgs, { keepRecent: 2 })?.replaced[0]).toBe(question);
  });

  it('replaces what precedes the question first, whatever keepRecent, the summary first', () => {
    const old = [userMsg('Hi'), assistantMsg('Hello', { name: 'bot' })];
    const question = userMsg('Find the price');
    const msgs = [...old, question, assistantMsg([use('c1')], { name: 'bot' }), toolMsg('c1')];
    const plan = planCompression(msgs, { keepRecent: 6, pinned: [question.id] })!;
    expect(plan.replaced).toEqual(old);
    expect(withSummary(plan, marker)).toEqual([marker, ...msgs.slice(2)]);
    const tight = planCompression(msgs, { keepRecent: 0, pinned: [question.id] })!;
    expect(tight.replaced).toEqual([...old, ...msgs.slice(3)]);
    expect(withSummary(tight, marker)).toEqual([marker, question]);
  });

  it('keeps a tool call whose result the pinned input holds, and the pinned run whole', () => {
    const call = assistantMsg([use('c1')], { name: 'bot' });
    const answer = createMsg({
      name: 'user',
      role: 'user',
      content: [res('c1'), { type: 'text', text: 'and go on' }],
    });
    const msgs = [userMsg('q'), call, answer, assistantMsg('ok', { name: 'bot' })];
    const plan = planCompression(msgs, { keepRecent: 0, pinned: [answer.id] })!;
    expect(plan.replaced).toEqual(msgs.slice(0, 1));
    expect(plan.kept).toEqual(msgs.slice(1));
    expect(planCompression(msgs, { keepRecent: 0, pinned: [msgs[0]!.id, answer.id] })).toEqual({
      replaced: msgs.slice(3),
      kept: msgs.slice(0, 3),
      summaryAt: 3,
    });
  });
});

describe('cutPoints', () => {
  it('never cuts inside a tool round, even when another message sits between call and result', () => {
    const msgs = [
      userMsg('q'),
      assistantMsg([use('c1')], { name: 'bot' }),
      userMsg('heard through a hub'),
      toolMsg('c1'),
      assistantMsg('done', { name: 'bot' }),
    ];
    expect(cutPoints(msgs)).toEqual([1, 4, 5]);
  });

  it('never leaves a tool result first, even one whose call is long gone', () => {
    const msgs = [userMsg('q'), toolMsg('gone'), assistantMsg('a', { name: 'bot' })];
    expect(cutPoints(msgs)).toEqual([2, 3]);
  });
});
