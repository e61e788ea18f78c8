/** Text and thinking read from a message's `content`. */
export interface ContentText {
  text: string;
  thinking: string;
}

/**
 * Reads `content` as a string or, in the dialect of Mistral's Magistral models, as an array
 * of typed parts: `{ type: 'text', text }` parts are text, `{ type: 'thinking', thinking }`
 * parts (a string or an array of text parts) are thinking. Parts of other types and
 * anything that is neither a string nor an array are ignored, never turned into
 * "[object Object]".
 */
export function contentText(content: unknown): ContentText {
  if (typeof content === 'string') return { text: content, thinking: '' };
  const out: ContentText = { text: '', thinking: '' };
  if (!Array.isArray(content)) return out;
  for (const part of content as unknown[]) {
    if (typeof part !== 'object' || part === null) continue;
    const typed = part as { type?: unknown; text?: unknown; thinking?: unknown };
    if (typed.type === 'text' && typeof typed.text === 'string') out.text += typed.text;
    else if (typed.type === 'thinking') out.thinking += thinkingText(typed.thinking);
  }
  return out;
}

function thinkingText(thinking: unknown): string {
  if (typeof thinking === 'string') return thinking;
  if (!Array.isArray(thinking)) return '';
  let text = '';
  for (const part of thinking as unknown[]) {
    const typed = part as { type?: unknown; text?: unknown } | null;
    if (typeof typed === 'object' && typed !== null && typeof typed.text === 'string') {
      text += typed.text;
    }
  }
  return text;
}
