import type { ChatMessage, ChatRequest } from '@rxagent/core';
import type { ScriptedReply, ScriptedTurn } from '@rxagent/core/testing';

// Offline, this policy plays the model. It is a function of the request alone (the step
// prompt and the tool results after it), so a restarted process, whose fresh model starts
// its script from the top, answers exactly as the killed one would have.

const PACE = { delayMs: 60, chunkDelayMs: 8 } as const;

const SLUGIFY_BASIC = `export function slugify(text) {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}
`;

// The first try at accents forgets that NFD leaves the accents behind as combining marks.
const SLUGIFY_NFD_ONLY = `export function slugify(text) {
  return text
    .normalize('NFD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}
`;

const SLUGIFY_ACCENTS = `export function slugify(text) {
  return text
    .normalize('NFD')
    .replace(/[\\u0300-\\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}
`;

const TRUNCATE_WORDS = `export function truncateWords(text, count) {
  const words = text.trim().split(/\\s+/);
  return words.length <= count ? words.join(' ') : \`\${words.slice(0, count).join(' ')}…\`;
}
`;

const TITLE_CASE = `const SMALL_WORDS = new Set(['a', 'an', 'and', 'in', 'of', 'on', 'the', 'to']);

export function titleCase(text) {
  return text
    .toLowerCase()
    .split(/\\s+/)
    .map((word, i) => (i > 0 && SMALL_WORDS.has(word) ? word : word[0].toUpperCase() + word.slice(1)))
    .join(' ');
}
`;

/** The scripted model: the same policy for every request (enough replies for any run). */
export function policyScript(): ScriptedReply[] {
  return Array.from({ length: 400 }, () => policy);
}

function policy(request: ChatRequest): ScriptedTurn {
  const { prompt, after } = currentStep(request);
  const step = Number(/^Step (\d+)/mu.exec(prompt)?.[1] ?? 0);
  const target = /^Next check: (\S+)/mu.exec(prompt)?.[1] ?? '';
  const retry = /did not count/u.test(prompt);
  const outputs = after
    .filter((message) => message.role === 'tool')
    .map((message) => message.content);
  if (outputs.length === 0) {
    return {
      ...PACE,
      toolCalls: [{ id: `s${step}_read`, name: 'read_file', arguments: { path: 'lib.mjs' } }],
    };
  }
  if (outputs.length === 1) {
    const content = edit(outputs[0] === '(empty file)' ? '' : String(outputs[0]), target, retry);
    return {
      ...PACE,
      toolCalls: [
        { id: `s${step}_write`, name: 'write_file', arguments: { path: 'lib.mjs', content } },
      ],
    };
  }
  return { ...PACE, text: summary(target, retry) };
}

/** The last plain user message (the step prompt) and everything after it. */
function currentStep(request: ChatRequest): { prompt: string; after: ChatMessage[] } {
  const index = request.messages.findLastIndex((m) => m.role === 'user' && m.name === undefined);
  const prompt = request.messages[index]?.content;
  return {
    prompt: typeof prompt === 'string' ? prompt : '',
    after: request.messages.slice(index + 1),
  };
}

function edit(source: string, target: string, retry: boolean): string {
  switch (target) {
    case 'slugify-basic':
      return append(source, SLUGIFY_BASIC);
    case 'slugify-accents':
      return replaceFunction(source, 'slugify', retry ? SLUGIFY_ACCENTS : SLUGIFY_NFD_ONLY);
    case 'truncate-words':
      return append(source, TRUNCATE_WORDS);
    case 'title-case':
      return append(source, TITLE_CASE);
    default:
      return source;
  }
}

function append(source: string, code: string): string {
  return source.trim() === '' ? code : `${source.trimEnd()}\n\n${code}`;
}

function replaceFunction(source: string, name: string, code: string): string {
  const pattern = new RegExp(`export function ${name}\\([^)]*\\) \\{[\\s\\S]*?\\n\\}\\n?`, 'u');
  return pattern.test(source) ? source.replace(pattern, code) : append(source, code);
}

function summary(target: string, retry: boolean): string {
  switch (target) {
    case 'slugify-basic':
      return 'Added slugify: lower-case, runs of other characters become one "-", trimmed at both ends.';
    case 'slugify-accents':
      return retry
        ? 'slugify now strips the combining marks NFD leaves behind, so "è" becomes "e".'
        : 'slugify now normalises to NFD first, which should take care of accents.';
    case 'truncate-words':
      return 'Added truncateWords: splits on whitespace and adds "…" only when it cut words.';
    case 'title-case':
      return 'Added titleCase: capitalises each word except small words after the first.';
    default:
      return 'Nothing to do.';
  }
}
