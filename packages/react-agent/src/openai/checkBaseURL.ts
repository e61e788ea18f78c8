/**
 * `value` when it is an http(s) URL; else a TypeError naming it and where it came from
 * (`baseURL` or `OPENAI_BASE_URL`). Without this, `localhost:8000/v1` would reach the
 * transport as a URL of the scheme `localhost:` and every attempt would fail (and be
 * retried) as if the network were down.
 */
export function checkBaseURL(value: string, source: 'baseURL' | 'OPENAI_BASE_URL'): string {
  let protocol: string | undefined;
  try {
    protocol = new URL(value).protocol;
  } catch {
    protocol = undefined;
  }
  if (protocol === 'http:' || protocol === 'https:') return value;
  const hasScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(value);
  const hint = hasScheme ? '' : `; did you mean "http://${value}"?`;
  throw new TypeError(
    `OpenAIChatModel: ${source} ${JSON.stringify(value)} is not an http:// or https:// URL${hint}`,
  );
}
