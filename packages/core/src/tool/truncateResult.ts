import type { ImageBlock, TextBlock, ToolResultBlock } from '../message/contentBlock.js';

/** The default longest tool result, in characters (UTF-16 code units), sent to the model. */
export const DEFAULT_MAX_RESULT_CHARS = 50_000;

/** What `truncateResult` returns: the result to store, and what was cut when it was cut. */
export interface TruncatedResult {
  /** `block` itself when it fits, else a copy whose text keeps its head and tail. */
  readonly result: ToolResultBlock;
  /**
   * Present only when text was cut: put it on the tool-result Msg as
   * `metadata.truncated = { originalChars }`.
   */
  readonly truncated?: { readonly originalChars: number };
}

/**
 * Cuts a tool result whose text is longer than `maxChars` characters, keeping its head and
 * its tail around a marker `[… N characters truncated …]`, so the model sees how the output
 * begins and ends and knows how much is missing. The kept text plus the marker is at most
 * `maxChars` long (unless `maxChars` is shorter than the marker itself), and no UTF-16
 * surrogate pair is split. An output of content blocks counts its text parts; when it is cut,
 * its text parts become one text block (joined by newlines), followed by its images in
 * order. Pure; `Infinity` never cuts.
 */
export function truncateResult(block: ToolResultBlock, maxChars: number): TruncatedResult {
  const { output } = block;
  if (typeof output === 'string') {
    if (output.length <= maxChars) return { result: block };
    return {
      result: { ...block, output: cutMiddle(output, maxChars) },
      truncated: { originalChars: output.length },
    };
  }
  let chars = 0;
  for (const part of output) if (part.type === 'text') chars += part.text.length;
  if (chars <= maxChars) return { result: block };
  const texts: string[] = [];
  const images: ImageBlock[] = [];
  for (const part of output) {
    if (part.type === 'text') texts.push(part.text);
    else images.push(part);
  }
  const text = texts.join('\n');
  const parts: Array<TextBlock | ImageBlock> = [
    { type: 'text', text: cutMiddle(text, maxChars) },
    ...images,
  ];
  return { result: { ...block, output: parts }, truncated: { originalChars: text.length } };
}

/** `text` (longer than `maxChars`) cut to its head and tail around the marker. */
function cutMiddle(text: string, maxChars: number): string {
  // The marker's digits are at most those of the whole length, so budget for that many.
  const markerLength = marker(text.length).length;
  const keep = Math.max(0, Math.floor(maxChars) - markerLength);
  let head = Math.ceil(keep / 2);
  let tailStart = text.length - (keep - head);
  if (head > 0 && isHighSurrogate(text.charCodeAt(head - 1))) head--;
  if (tailStart < text.length && isLowSurrogate(text.charCodeAt(tailStart))) tailStart++;
  return `${text.slice(0, head)}${marker(tailStart - head)}${text.slice(tailStart)}`;
}

function marker(cut: number): string {
  return `[… ${cut} characters truncated …]`;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
