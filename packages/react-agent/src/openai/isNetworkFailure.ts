/** Socket-level error codes of Node and undici that mean the connection failed or was cut. */
const NETWORK_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'EAI_AGAIN',
  'ENOTFOUND',
  'ERR_STREAM_PREMATURE_CLOSE',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

/** Messages that Node's `fetch` (undici) and `node:http` give a failed or cut connection. */
const NETWORK_MESSAGES =
  /^(fetch failed|terminated|other side closed|socket hang up|aborted|premature close)$/i;

/**
 * Whether `error` (or an error in its `cause` chain) is a network failure: the connection
 * could not be made or was cut (`fetch failed`, `ECONNRESET`, `socket hang up`, a body
 * `terminated`…). A parse error or a programming error (any other `TypeError`) is not.
 */
export function isNetworkFailure(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && NETWORK_CODES.has(code)) return true;
    if (NETWORK_MESSAGES.test(current.message)) return true;
    current = current.cause;
  }
  return false;
}
