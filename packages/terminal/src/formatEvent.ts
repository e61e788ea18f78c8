import {
  type AgentEvent,
  type HookEventSnapshot,
  isJsonObject,
  type Msg,
  type NestedAgentEvent,
  pendingCallPath,
  type ReplyEvent,
  replyMetadata,
  textOf,
  toolOutputText,
} from '@rxagent/core';
import { judgeLine, reasonLines } from './endReasonLines.js';
import { LINE_LIMIT, toolCallLine } from './lineParts.js';
import type { RenderState } from './renderState.js';
import { type Style, styleFor } from './style.js';
import { firstLine, formatCount, formatElapsed, formatUsage, oneLine, truncate } from './text.js';

/** What one event renders to: the text to write (possibly empty) and the next state. */
export interface Rendered {
  readonly text: string;
  readonly state: RenderState;
}

type Snapshot<T extends HookEventSnapshot['type']> = Extract<HookEventSnapshot, { type: T }>;

/**
 * Renders one `stream()` event as terminal text. Pure: the same event and state always give
 * the same text and next state, so it is tested without a TTY. Streamed reply text is
 * returned as the delta alone (no newline, never the whole reply again), so rendering a
 * reply costs O(its length); every other event renders as whole lines, closing an open
 * stream line first. `now` (same clock as `state.startedAt`) times the final line.
 *
 * @example
 * ```ts
 * let state = initialRenderState({ startedAt: Date.now() });
 * agent.stream(userMsg('Hi')).subscribe((event) => {
 *   const rendered = formatEvent(event, state, Date.now());
 *   process.stdout.write(rendered.text);
 *   state = rendered.state;
 * });
 * ```
 */
export function formatEvent(event: AgentEvent, state: RenderState, now: number): Rendered {
  const style = styleFor(state.color);
  if (event.type !== 'reply' && event.path !== undefined)
    return formatNested(event as NestedAgentEvent, state, style);
  if (event.type === 'actingChunk') {
    const echoed = withoutEcho(state, event.agent.name, event.chunk);
    if (echoed !== undefined) return { text: '', state: echoed };
  }
  switch (event.type) {
    case 'reasoningChunk':
      return formatChunk(event, state, style);
    case 'preReasoning':
      return lines(state, preReasoningLines(event, style));
    case 'actingChunk':
      return formatToolChunk(event, state, style);
    case 'preActing':
      return lines(state, [toolCallLine(event.toolCall.name, event.toolCall.input, style)]);
    case 'postActing':
      return lines(state, [toolResultLine(event, style)]);
    case 'preSummary':
      return lines(state, [
        style.yellow(`↯ ${summaryCause(event)}: one last answer without tools`),
      ]);
    case 'postCompress':
      return lines(state, [compressionLine(event, style)]);
    case 'guardrail':
      return lines(state, guardrailLines(event, style));
    case 'memoryRecall':
    case 'memoryWrite':
      return lines(state, [style.dim(memoryLine(event))]);
    case 'error':
      return {
        ...lines(state, [style.red(`✗ error: ${errorMessage(event.error)}`)]),
        state: { ...closed(state), errorShown: true },
      };
    case 'reply':
      return lines(state, replyLines(event, state, style, now));
    default:
      return lines(state, []);
  }
}

/**
 * Renders the end of a stream that did not end with a reply: closes an open stream line and,
 * for an error not already shown by an `error` event, prints it with the elapsed time.
 */
export function formatEnd(state: RenderState, now: number, error?: unknown): Rendered {
  if (error === undefined || state.errorShown) return lines(state, []);
  const style = styleFor(state.color);
  const elapsed = formatElapsed(now - state.startedAt);
  return lines(state, [style.red(`✗ failed after ${elapsed}: ${errorMessage(error)}`)]);
}

/**
 * Renders a note that is not an event's (a prompt, a hint) as whole lines: an open stream
 * line is closed first, and the note ends with a newline (one is added when it has none).
 */
export function formatNote(state: RenderState, text: string): Rendered {
  if (text === '') return { text: '', state };
  const body = text.endsWith('\n') ? text.slice(0, -1) : text;
  return lines(state, [body]);
}

function formatChunk(
  event: Snapshot<'reasoningChunk'>,
  state: RenderState,
  style: Style,
  nested?: { readonly path: string; readonly prefix: string },
): Rendered {
  let text = '';
  let next = state;
  const name = event.agent.name;
  const { thinking, text: delta } = event.delta;
  const path = nested?.path;
  const prefix = nested?.prefix ?? '';
  const indent = (part: string): string =>
    prefix === '' ? part : part.replaceAll('\n', `\n${prefix}`);
  if (thinking && state.showThinking) {
    if (next.open !== 'thinking' || next.openPath !== path) {
      text += `${closing(next)}${prefix}${style.dim(`${name} (thinking): `)}`;
      next = { ...next, open: 'thinking', openPath: path };
    } else if (next.atLineStart) text += prefix;
    text += style.dim(indent(trimEnd(thinking)));
    if (thinking.endsWith('\n')) text += '\n';
    next = { ...next, atLineStart: thinking.endsWith('\n') };
  }
  if (delta) {
    if (next.open !== 'text' || next.openPath !== path) {
      text += `${closing(next)}${prefix}${style.bold(style.cyan(`${name}:`))} `;
      next = { ...next, open: 'text', openPath: path };
    } else if (next.atLineStart) text += prefix;
    text += indent(trimEnd(delta));
    if (delta.endsWith('\n')) text += '\n';
    next = { ...next, atLineStart: delta.endsWith('\n') };
    if (nested === undefined) next = { ...next, streamedId: event.accumulated.id };
  }
  return { text, state: next };
}

/** `text` without one trailing newline (added back after indenting the rest). */
function trimEnd(text: string): string {
  return text.endsWith('\n') ? text.slice(0, -1) : text;
}

/**
 * A sub-agent's event (it has a `path`), indented one `│` per level under the tool call that
 * runs it: its streamed text and thinking (labelled with its name), its tool calls and
 * results, errors, summaries and why its call ended when it was not a plain answer (an
 * approval stop, say). Its text, which its caller's tool also streams as chunks, is printed
 * once.
 */
function formatNested(event: NestedAgentEvent, state: RenderState, style: Style): Rendered {
  const path = event.path.join('/');
  const prefix = style.dim('  │ '.repeat(event.path.length - 1));
  const at = (out: readonly string[]): Rendered =>
    lines(
      state,
      out.map((line) => prefix + line),
    );
  switch (event.type) {
    case 'reasoningChunk': {
      const rendered = formatChunk(event, state, style, { path, prefix });
      const text = event.delta.text;
      if (!text) return rendered;
      const at = callerOf(event.path);
      const echo = { ...state.echo, [at]: (state.echo?.[at] ?? '') + text };
      return { ...rendered, state: { ...rendered.state, echo } };
    }
    case 'actingChunk': {
      const echoed = withoutEcho(state, path, event.chunk);
      if (echoed !== undefined) return { text: '', state: echoed };
      return formatToolChunk(event, state, style, { path, prefix });
    }
    case 'preActing':
      return at([toolCallLine(event.toolCall.name, event.toolCall.input, style)]);
    case 'postActing':
      return at([toolResultLine(event, style)]);
    case 'preSummary':
      return at([style.yellow(`↯ ${summaryCause(event)}: one last answer without tools`)]);
    case 'error':
      return at([style.red(`✗ ${event.agent.name} error: ${errorMessage(event.error)}`)]);
    case 'postCall':
      // A stop that waits on a deeper agent was shown where that agent stopped.
      return waitsDeeper(event.reply) ? { text: '', state } : at(reasonLines(event.reply, style));
    default:
      return { text: '', state };
  }
}

/**
 * A guardrail's verdict when it acted: `🛡 guardrail pii blocked the output: …` for a trip,
 * `redacted` for a replacement; a pass prints nothing.
 */
function guardrailLines(event: Snapshot<'guardrail'>, style: Style): string[] {
  if (!event.tripped && !event.replaced) return [];
  const what =
    event.stage === 'toolCall'
      ? 'a tool call'
      : event.stage === 'toolResult'
        ? 'a tool result'
        : `the ${event.stage}`;
  const verb = event.tripped ? 'blocked' : 'redacted';
  const line = `🛡 guardrail ${event.guardrail} ${verb} ${what}${event.reason ? `: ${event.reason}` : ''}`;
  return [event.tripped ? style.red(line) : style.yellow(line)];
}

/** Whether `reply` is an approval stop whose waiting calls all belong to deeper agents. */
function waitsDeeper(reply: Msg): boolean {
  const { generateReason, pendingToolCalls = [] } = replyMetadata(reply);
  return (
    generateReason === 'approval_required' &&
    pendingToolCalls.length > 0 &&
    pendingToolCalls.every((call) => pendingCallPath(call) !== undefined)
  );
}

/** The path of the agent whose tool runs the agent at `path` (its name alone at the top). */
function callerOf(path: readonly string[]): string {
  return path.slice(0, -1).join('/');
}

/**
 * When a chunk of a tool of the agent at `at` repeats text a sub-agent already streamed:
 * the state with that text consumed; else `undefined` (the chunk is printed).
 */
function withoutEcho(
  state: RenderState,
  at: string,
  chunk: Snapshot<'actingChunk'>['chunk'],
): RenderState | undefined {
  const pending = state.echo?.[at];
  const text = chunkText(chunk);
  if (pending === undefined || text === '' || !pending.startsWith(text)) return undefined;
  return { ...state, echo: { ...state.echo, [at]: pending.slice(text.length) } };
}

/**
 * A tool's streamed output (an agent used as a tool streams its text this way), indented
 * under its tool call: `  ┆ ` starts each of its lines, and a new line starts when output of
 * another call (or another stream) comes in between.
 */
function formatToolChunk(
  event: Snapshot<'actingChunk'>,
  state: RenderState,
  style: Style,
  nested?: { readonly path: string; readonly prefix: string },
): Rendered {
  const delta = chunkText(event.chunk);
  if (delta === '') return { text: '', state };
  const prefix = `${nested?.prefix ?? ''}${style.dim('  ┆ ')}`;
  const id = event.toolCall.id;
  let text = '';
  if (state.open !== 'tool' || state.toolCallId !== id) text = closing(state) + prefix;
  else if (state.atLineStart) text = prefix;
  const endsLine = delta.endsWith('\n');
  const body = endsLine ? delta.slice(0, -1) : delta;
  text += body.includes('\n') ? body.replaceAll('\n', `\n${prefix}`) : body;
  if (endsLine) text += '\n';
  return {
    text,
    state: {
      ...state,
      open: 'tool',
      toolCallId: id,
      atLineStart: endsLine,
      openPath: nested?.path,
    },
  };
}

function chunkText(chunk: Snapshot<'actingChunk'>['chunk']): string {
  if (typeof chunk === 'string') return chunk;
  return chunk.map((block) => (block.type === 'text' ? block.text : '')).join('');
}

/** `⇣ 40 messages → 1 · 12.1k → 3.0k tokens`: old messages replaced by a summary or marker. */
function compressionLine(event: Snapshot<'postCompress'>, style: Style): string {
  const { removed, tokensBefore, tokensAfter } = event;
  const messages = `${removed} message${removed === 1 ? '' : 's'} → 1`;
  const tokens = `${formatCount(tokensBefore)} → ${formatCount(tokensAfter)} tokens`;
  return style.yellow(`⇣ ${messages} · ${tokens}`);
}

/**
 * `⌕ memory: 3 recalled (best 2.41) · 4 ms` or `✎ memory: 2 written by observer · 9 ms`:
 * what long-term memory read before the first request, or wrote.
 */
function memoryLine(event: Snapshot<'memoryRecall'> | Snapshot<'memoryWrite'>): string {
  if (event.type === 'memoryRecall') {
    const best = event.items[0];
    const top = best === undefined ? '' : ` (best ${best.score.toFixed(2)})`;
    return `⌕ memory: ${event.items.length} recalled${top} · ${Math.round(event.ms)} ms`;
  }
  const failed = event.error === undefined ? '' : ` · failed: ${event.error}`;
  return `✎ memory: ${event.keys.length} written by ${event.source} · ${Math.round(event.ms)} ms${failed}`;
}

/**
 * `✂ read_file: 120.0k → 50.0k characters` for a tool-result Msg the agent truncated
 * (`metadata.truncated`), or `undefined`.
 */
function truncationLine(msg: Msg, style: Style): string | undefined {
  const truncated = msg.metadata['truncated'];
  if (!isJsonObject(truncated) || typeof truncated['originalChars'] !== 'number') return undefined;
  const result = msg.content.find((block) => block.type === 'tool_result');
  const name = result?.type === 'tool_result' ? result.name : msg.name;
  const kept = result?.type === 'tool_result' ? toolOutputText(result).length : undefined;
  const size =
    kept === undefined
      ? `${formatCount(truncated['originalChars'])} characters`
      : `${formatCount(truncated['originalChars'])} → ${formatCount(kept)} characters`;
  return style.yellow(`✂ ${name}: result truncated, ${size}`);
}

/**
 * Truncation of the tool results the model is about to read (the trailing tool messages,
 * stored since the last step), then framework feedback, and a forced tool choice.
 */
function preReasoningLines(event: Snapshot<'preReasoning'>, style: Style): string[] {
  const out: string[] = [];
  const { messages } = event;
  let first = messages.length;
  while (first > 0 && messages[first - 1]!.role === 'tool') first--;
  for (const msg of messages.slice(first)) {
    const line = truncationLine(msg, style);
    if (line !== undefined) out.push(line);
  }
  const last = event.messages[event.messages.length - 1];
  if (last !== undefined && last.role === 'user' && last.name === 'system') {
    const text = textOf(last);
    if (last.metadata['feedback'] === 'judge') {
      const feedback = text.replace(/^\[Judge feedback\]\s*/, '');
      out.push(
        style.yellow(`⚖ judge rejected the draft: ${truncate(firstLine(feedback), LINE_LIMIT)}`),
      );
    } else {
      out.push(style.dim(`↳ system: ${truncate(firstLine(text), LINE_LIMIT)}`));
    }
  }
  const choice = event.toolChoice;
  if (typeof choice === 'object') out.push(style.dim(`↳ tool choice forced: ${choice.name}`));
  return out;
}

/** Why the tool-less summary runs, from the instruction it sends last. */
function summaryCause(event: Snapshot<'preSummary'>): string {
  const last = event.messages[event.messages.length - 1];
  return last?.metadata['feedback'] === 'tool_failures'
    ? 'repeated tool failures'
    : 'step limit reached';
}

function toolResultLine(event: Snapshot<'postActing'>, style: Style): string {
  const { result } = event;
  const text = toolOutputText(result);
  if (event.resultKind === 'denied') {
    const reason = text.replace(/^\[denied\]\s*/, '');
    return `${style.red(`✗ denied: ${truncate(oneLine(reason), LINE_LIMIT)}`)} ${style.dim(`(${result.name})`)}`;
  }
  // An error's reason is often on its second line, so errors are shown joined, not cut.
  if (result.isError) return style.red(`✗ ${result.name}: ${truncate(oneLine(text), LINE_LIMIT)}`);
  const output = truncate(firstLine(text), LINE_LIMIT) || '(empty)';
  const mark = event.resultKind === 'duplicate' ? style.yellow('↺') : style.green('←');
  return `${mark} ${style.magenta(result.name)}: ${output}`;
}

function replyLines(event: ReplyEvent, state: RenderState, style: Style, now: number): string[] {
  const { msg } = event;
  const out: string[] = [];
  const text = textOf(msg);
  // A structured reply's text is the JSON of its response, which the ◆ line already shows.
  const structured = msg.metadata['generateReason'] === 'structured_output';
  if (text !== '' && msg.id !== state.streamedId && !structured) {
    out.push(`${style.bold(style.cyan(`${msg.name}:`))} ${text}`);
  }
  const truncation = truncationLine(msg, style);
  if (truncation !== undefined) out.push(truncation);
  out.push(...reasonLines(msg, style));
  const judge = judgeLine(msg.metadata['finishGuard']);
  if (judge !== undefined) out.push(style.yellow(judge));
  const parts = [formatElapsed(now - state.startedAt)];
  const usage = formatUsage(msg.metadata['usage']);
  if (usage !== undefined) parts.push(usage);
  out.push(`${style.green('✓')} ${style.dim(parts.join(' · '))}`);
  return out;
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A newline when a stream line is open and not yet ended. */
function closing(state: RenderState): string {
  return state.open !== undefined && !state.atLineStart ? '\n' : '';
}

function closed(state: RenderState): RenderState {
  return {
    ...state,
    open: undefined,
    toolCallId: undefined,
    atLineStart: true,
    openPath: undefined,
  };
}

/** Closes an open stream line, then writes each of `out` as a whole line. */
function lines(state: RenderState, out: readonly string[]): Rendered {
  if (out.length === 0 && state.open === undefined) return { text: '', state };
  const text = closing(state) + out.map((line) => `${line}\n`).join('');
  return { text, state: closed(state) };
}
