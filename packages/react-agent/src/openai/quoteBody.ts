/** How many characters of a server's body an error message quotes at most. */
export const MAX_QUOTED_CHARS = 500;

/**
 * `text` shortened for an error message: at most `max` characters, whitespace runs folded,
 * and a note of how many characters were left out.
 */
export function quoteBody(text: string, max = MAX_QUOTED_CHARS): string {
  const head = text.length > max * 4 ? text.slice(0, max * 4) : text;
  const folded = head.replace(/\s+/g, ' ').trim();
  if (text.length <= max && folded.length <= max) return folded;
  return `${folded.slice(0, max)}… (${text.length} characters in all)`;
}
