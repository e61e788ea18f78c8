/** At most the first `maxBytes` of a body, as text; the rest is cancelled unread. */
export async function readText(response: Response, maxBytes: number): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const decoder = new TextDecoder();
  let text = '';
  let bytes = 0;
  try {
    while (bytes < maxBytes) {
      const { done, value } = await reader.read();
      if (done) break;
      const part =
        value.byteLength > maxBytes - bytes ? value.subarray(0, maxBytes - bytes) : value;
      bytes += part.byteLength;
      text += decoder.decode(part, { stream: true });
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  return text + decoder.decode();
}
