/**
 * Whether a request's `Content-Type` header is JSON in UTF-8: one of `mediaTypes` (default
 * `application/json`; A2A adds `application/a2a+json`), with no parameter but an optional
 * `charset=utf-8` (any case, quoted or not). Anything else (no header, `text/plain`, a form,
 * multipart, another charset) is not.
 *
 * Only JSON is accepted because the other types are what any web page can POST to any
 * address, a loopback one included, without a CORS preflight: refusing them keeps a foreign
 * page from running the agent.
 */
export function isJsonContentType(
  header: string | undefined,
  mediaTypes: readonly string[] = JSON_MEDIA_TYPES,
): boolean {
  if (header === undefined) return false;
  const [type, ...parameters] = header.split(';');
  if (!mediaTypes.includes(type?.trim().toLowerCase() ?? '')) return false;
  return parameters.every((parameter) => {
    const [name, value] = parameter.split('=').map((part) => part.trim().toLowerCase());
    return name === 'charset' && (value === 'utf-8' || value === '"utf-8"');
  });
}

const JSON_MEDIA_TYPES: readonly string[] = ['application/json'];
