import { describe, expect, it } from 'vitest';
import { isJsonObject, type JsonObject } from '../json.js';
import type { ContentBlock } from '../message/contentBlock.js';
import { createMsg, type Msg, type Role } from '../message/msg.js';
import { toolOutputText } from '../message/readers.js';
import type {
  AssistantChatMessage,
  ChatContentPart,
  ChatMessage,
  ChatThinking,
  ChatToolCall,
  UserChatMessage,
} from './chatMessage.js';
import { type FormatOptions, formatMessages } from './formatMessages.js';
import { KEEP_FROM } from './keptWireForms.js';
import { wireMessagesBuilt } from './msgWireForm.js';

/** A small seeded generator, so a failing history can be replayed from its seed. */
function random(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state / 0x1_0000_0000;
  };
}

const NAMES = ['user', 'system', 'me', 'assistant', 'other agent', 'bot-2', ''];
const MODELS = ['m1', 'm2'];

/** A history of every kind of Msg the formatter treats apart. */
function fuzzHistory(seed: number, length: number): Msg[] {
  const next = random(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const msgs: Msg[] = [];
  const ids: string[] = [];
  for (let i = 0; i < length; i++) {
    const role = pick<Role>(['user', 'assistant', 'assistant', 'tool', 'system']);
    const content: ContentBlock[] = [];
    const blocks = Math.floor(next() * 4);
    for (let b = 0; b < blocks; b++) {
      const kind = pick(['text', 'text', 'image', 'thinking', 'tool_use', 'tool_result']);
      if (kind === 'text') content.push({ type: 'text', text: `t${i}.${b} "quoted" \\ é` });
      else if (kind === 'image')
        content.push({ type: 'image', url: `data:image/png;base64,A${i}` });
      else if (kind === 'thinking') {
        const provider: JsonObject = pick([
          {},
          { reasoningField: 'reasoning_content' },
          { reasoningField: 'reasoning', reasoningDetails: [{ type: 'x', text: `d${i}` }, 3] },
          { redacted: `opaque${i}` },
        ]);
        content.push({
          type: 'thinking',
          thinking: `think ${i}`,
          ...(next() < 0.5 && { signature: `sig${i}` }),
          ...(next() < 0.7 && { provider }),
        });
      } else if (kind === 'tool_use') {
        const id = `call_${i}_${b}`;
        ids.push(id);
        content.push({
          type: 'tool_use',
          id,
          name: 'lookup',
          input: { q: i, nested: { list: [1, 'two'] } },
          ...(next() < 0.3 && {
            provider: { extraContent: { google: { thought_signature: 's' } } },
          }),
        });
      } else {
        // Results of calls made before, and of calls no formatted Msg made.
        const id = next() < 0.7 && ids.length > 0 ? pick(ids) : `orphan_${i}_${b}`;
        content.push({
          type: 'tool_result',
          id,
          name: 'lookup',
          output:
            next() < 0.5
              ? `out ${i}`
              : [
                  { type: 'text', text: 'a' },
                  { type: 'image', url: 'u' },
                ],
        });
      }
    }
    msgs.push(
      createMsg({
        name: pick(NAMES),
        role,
        content,
        metadata: next() < 0.6 ? { model: pick(MODELS) } : {},
      }),
    );
  }
  return msgs;
}

function optionsOf(seed: number): FormatOptions {
  const next = random(seed * 7 + 3);
  return {
    ...(next() < 0.7 && { selfName: next() < 0.5 ? 'me' : 'bot-2' }),
    ...(next() < 0.7 && { model: next() < 0.5 ? 'm1' : 'm2' }),
    ...(next() < 0.5 && { systemPrompt: 'Be brief.' }),
  };
}

describe("formatMessages keeps each Msg's wire form", () => {
  it('formats only the Msgs a request adds, and shares the wire messages of the others', () => {
    const history = fuzzHistory(1, 40);
    const options = { selfName: 'me', model: 'm1', systemPrompt: 'Be brief.' };
    const first = formatMessages(history.slice(0, 30), options);
    const before = wireMessagesBuilt();
    const second = formatMessages(history, options);
    const built = wireMessagesBuilt() - before;
    const expected = referenceFormat(history, options);
    expect(JSON.stringify(second)).toBe(JSON.stringify(expected));
    // The new Msgs' messages only (each tool result is built once per Msg, sent or not).
    const fresh = referenceFormat(history.slice(30), {}).length;
    expect(built).toBeGreaterThan(0);
    expect(built).toBeLessThanOrEqual(fresh + 10 * 4);
    const third = formatMessages(history, options);
    expect(wireMessagesBuilt() - before).toBe(built);
    // Everything but the system prompt is the very same object as before.
    for (let i = 1; i < second.length; i++) expect(third[i]).toBe(second[i]);
    for (let i = 1; i < first.length; i++) expect(second).toContain(first[i]);
  });

  it('builds nothing for a long history already formatted (work grows with what is new)', () => {
    const history = fuzzHistory(2, 200);
    const options = { selfName: 'me', model: 'm1' };
    for (let n = KEEP_FROM; n <= history.length; n++) formatMessages(history.slice(0, n), options);
    const before = wireMessagesBuilt();
    for (let n = KEEP_FROM; n <= history.length; n++) formatMessages(history.slice(0, n), options);
    expect(wireMessagesBuilt() - before).toBe(0);
  });

  it('formats a short request afresh: nothing kept, its messages its own', () => {
    const history = fuzzHistory(3, KEEP_FROM - 1);
    const options = { selfName: 'me', model: 'm1', systemPrompt: 'Be brief.' };
    const first = formatMessages(history, options);
    const second = formatMessages(history, options);
    expect(second).toEqual(first);
    for (let i = 0; i < first.length; i++) {
      expect(second[i]).not.toBe(first[i]);
      expect(Object.isFrozen(first[i])).toBe(false);
    }
  });

  it('gives what an uncached formatter gives, for fuzzed histories, options and growing requests', () => {
    for (let seed = 1; seed <= 150; seed++) {
      const history = fuzzHistory(seed, 1 + (seed % 25));
      // The same Msgs under several options: each request must still be exact.
      for (let variant = 0; variant < 3; variant++) {
        const options = optionsOf(seed * 3 + variant);
        for (const end of [Math.ceil(history.length / 2), history.length]) {
          const msgs = history.slice(seed % 3, end);
          const got = formatMessages(msgs, options);
          expect(JSON.stringify(got), `seed ${seed}`).toBe(
            JSON.stringify(referenceFormat(msgs, options)),
          );
          expect(got).toEqual(referenceFormat(msgs, options));
        }
      }
    }
  });

  it("freezes the shared wire messages, so no request can change another's", () => {
    const history = fuzzHistory(5, 30);
    const options = { selfName: 'me', model: 'm1' };
    const first = formatMessages(history, options);
    const text = JSON.stringify(first);
    for (const message of first.slice(0)) {
      expect(Object.isFrozen(message)).toBe(true);
      expect(() => {
        (message as { content: unknown }).content = 'changed';
      }).toThrow(TypeError);
      if (message.role === 'assistant' && message.tool_calls) {
        expect(() => message.tool_calls!.push(message.tool_calls![0]!)).toThrow(TypeError);
        expect(Object.isFrozen(message.tool_calls[0]!.function)).toBe(true);
      }
      if (message.role === 'user' && Array.isArray(message.content)) {
        expect(Object.isFrozen(message.content[0])).toBe(true);
      }
    }
    // The returned array is the caller's own.
    first.push({ role: 'user', content: 'mine' });
    first.reverse();
    expect(JSON.stringify(formatMessages(history, options))).toBe(text);
  });

  it('formats a changed Msg (a new value) anew, and the old one as before', () => {
    const msg = createMsg({ name: 'user', role: 'user', content: 'before' });
    const pad = fuzzHistory(4, KEEP_FROM);
    const first = formatMessages([...pad, msg]);
    const changed: Msg = { ...msg, content: [{ type: 'text', text: 'after' }] };
    expect(formatMessages([...pad, changed]).at(-1)).toEqual({ role: 'user', content: 'after' });
    expect(formatMessages([...pad, msg]).at(-1)).toBe(first.at(-1));
  });

  it("keeps both forms of an assistant Msg formatted as its own turn and as another agent's", () => {
    const msg = createMsg({
      name: 'bot-2',
      role: 'assistant',
      content: [
        { type: 'text', text: 'hi' },
        { type: 'tool_use', id: 'c1', name: 'f', input: {} },
      ],
    });
    // Plain user turns before it: nothing that changes with the agent's name.
    const pad = Array.from({ length: KEEP_FROM }, (_, i) =>
      createMsg({ name: 'user', role: 'user', content: `q${i}` }),
    );
    const own = formatMessages([...pad, msg], { selfName: 'bot-2' }).at(-1);
    const other = formatMessages([...pad, msg], { selfName: 'me' }).at(-1);
    expect(other).toEqual({ role: 'user', content: 'hi', name: 'bot-2' });
    expect(formatMessages([...pad, msg], { selfName: 'bot-2' }).at(-1)).toBe(own);
    expect(formatMessages([...pad, msg], { selfName: 'me' }).at(-1)).toBe(other);
  });
});

// The formatter before wire forms were kept, as it was: the reference the cached one must match.
function referenceFormat(msgs: readonly Msg[], options: FormatOptions = {}): ChatMessage[] {
  const out: ChatMessage[] = [];
  if (options.systemPrompt) out.push({ role: 'system', content: options.systemPrompt });
  const callIds = new Set<string>();
  for (const msg of msgs) {
    switch (msg.role) {
      case 'system':
        out.push({ role: 'system', content: joinText(msg.content) });
        break;
      case 'user': {
        // Results must directly follow the assistant turn that asked for them.
        const answered = pushToolResults(msg.content, callIds, out);
        pushUser(msg, msg.name === 'user' ? undefined : msg.name, !answered, out);
        break;
      }
      case 'assistant':
        if (isOtherAgent(msg, options.selfName)) {
          pushUser(msg, msg.name, false, out);
        } else {
          out.push(toAssistant(msg, callIds, sentBack(msg, options.model)));
          pushToolResults(msg.content, callIds, out);
        }
        break;
      case 'tool':
        pushToolResults(msg.content, callIds, out);
        break;
    }
  }
  return out;
}

/**
 * Whether an assistant Msg is another agent's speech. `assistantMsg()`'s default name,
 * `"assistant"`, counts as the formatting agent's own: memory seeded with plain assistant
 * messages, or a hook's replacement reply, must not turn into user turns.
 */
function isOtherAgent(msg: Msg, selfName: string | undefined): boolean {
  return selfName !== undefined && msg.name !== selfName && msg.name !== 'assistant';
}

function sanitizeName(name: string): string {
  return name.replace(/[^A-Za-z0-9_-]/gu, '_').slice(0, 64);
}

/** Pushes the answerable tool results of `blocks`; whether the blocks held any result. */
function pushToolResults(
  blocks: readonly ContentBlock[],
  callIds: ReadonlySet<string>,
  out: ChatMessage[],
): boolean {
  let found = false;
  for (const block of blocks) {
    if (block.type !== 'tool_result') continue;
    found = true;
    if (callIds.has(block.id)) {
      out.push({ role: 'tool', tool_call_id: block.id, content: toolOutputText(block) });
    }
  }
  return found;
}

/** Pushes `msg` as a user message; an empty one only when `keepEmpty` (a real user turn). */
function pushUser(
  msg: Msg,
  name: string | undefined,
  keepEmpty: boolean,
  out: ChatMessage[],
): void {
  const content = userContent(msg.content);
  if (!keepEmpty && content.length === 0) return;
  const wireName = name === undefined ? '' : sanitizeName(name);
  const message: UserChatMessage = { role: 'user', content };
  if (wireName) message.name = wireName;
  out.push(message);
}

function userContent(blocks: readonly ContentBlock[]): string | ChatContentPart[] {
  if (!blocks.some((block) => block.type === 'image')) return joinText(blocks);
  const parts: ChatContentPart[] = [];
  for (const block of blocks) {
    if (block.type === 'text') parts.push({ type: 'text', text: block.text });
    else if (block.type === 'image')
      parts.push({ type: 'image_url', image_url: { url: block.url } });
  }
  return parts;
}

/** Whether the reasoning `msg` recorded may go back to `model`: the model that produced it. */
function sentBack(msg: Msg, model: string | undefined): boolean {
  return model !== undefined && msg.metadata['model'] === model;
}

function toAssistant(msg: Msg, callIds: Set<string>, reasoning: boolean): AssistantChatMessage {
  const blocks = msg.content;
  const message: AssistantChatMessage = { role: 'assistant', content: joinText(blocks) };
  if (reasoning) addReasoning(blocks, message);
  let calls = 0;
  let thinking: ChatThinking[] | undefined;
  for (const block of blocks) {
    if (block.type === 'tool_use') calls++;
    else if (reasoning && block.type === 'thinking') {
      const signed = signedThinking(block);
      if (signed === undefined) continue;
      thinking ??= [];
      thinking.push(signed);
    }
  }
  if (thinking !== undefined) message.thinking = thinking;
  if (calls === 0) return message;
  // Sized up front: a request is held for as long as its model call runs, and an array
  // grown by push keeps room for 17 entries.
  const toolCalls = new Array<ChatToolCall>(calls);
  let at = 0;
  for (const block of blocks) {
    if (block.type !== 'tool_use') continue;
    callIds.add(block.id);
    const call: ChatToolCall = {
      id: block.id,
      type: 'function',
      function: { name: block.name, arguments: JSON.stringify(block.input) },
    };
    const extra = reasoning ? block.provider?.['extraContent'] : undefined;
    if (isJsonObject(extra)) call.extra_content = extra;
    toolCalls[at++] = call;
  }
  message.tool_calls = toolCalls;
  return message;
}

/** Puts the reasoning of `blocks` in the fields the server sent it in. */
function addReasoning(blocks: readonly ContentBlock[], message: AssistantChatMessage): void {
  for (const block of blocks) {
    if (block.type !== 'thinking' || block.provider === undefined) continue;
    const { reasoningField, reasoningDetails } = block.provider;
    if (reasoningField === 'reasoning_content' || reasoningField === 'reasoning') {
      const before = message[reasoningField];
      message[reasoningField] = before === undefined ? block.thinking : before + block.thinking;
    }
    if (Array.isArray(reasoningDetails)) {
      const details = reasoningDetails.filter(isJsonObject) as JsonObject[];
      message.reasoning_details = message.reasoning_details
        ? [...message.reasoning_details, ...details]
        : details;
    }
  }
}

/** A thinking block the provider must get back unchanged, or `undefined` for plain thinking. */
function signedThinking(block: ContentBlock & { type: 'thinking' }): ChatThinking | undefined {
  const redacted = block.provider?.['redacted'];
  if (typeof redacted === 'string') return { type: 'redacted_thinking', data: redacted };
  if (block.signature !== undefined) {
    return { type: 'thinking', thinking: block.thinking, signature: block.signature };
  }
  return undefined;
}

function joinText(blocks: readonly ContentBlock[]): string {
  // No array per message: most messages hold one text block, which is then used as it is.
  let text: string | undefined;
  for (const block of blocks) {
    if (block.type === 'text') text = text === undefined ? block.text : `${text}\n${block.text}`;
  }
  return text ?? '';
}
