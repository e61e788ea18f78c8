/**
 * The JSON error object to read a failed response's message from: the body itself when it
 * is an object (OpenAI's `{ "error": { "message": … } }`), the first `{ "error": … }` of an
 * array of them (Gemini's `[{ "error": { "code": 400, "message": …, "status": … } }]`), or
 * the first item of another array wrapped as `{ error: item }`. `undefined` for anything
 * else, so the text of the body is the message.
 */
export function errorEnvelope(parsed: unknown): object | undefined {
  if (Array.isArray(parsed)) {
    const first: unknown = parsed.find(
      (item: unknown) => typeof item === 'object' && item !== null && 'error' in item,
    );
    if (first !== undefined) return first as object;
    return parsed.length > 0 ? { error: parsed[0] as unknown } : undefined;
  }
  return typeof parsed === 'object' && parsed !== null ? parsed : undefined;
}
