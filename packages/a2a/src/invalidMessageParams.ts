/** The JSON-RPC methods whose params carry a message. */
const MESSAGE_METHODS: ReadonlySet<string> = new Set(['SendMessage', 'SendStreamingMessage']);

/** The roles a message may have, as ProtoJSON writes them (names or numbers). */
const ROLES: ReadonlySet<unknown> = new Set(['ROLE_USER', 'ROLE_AGENT', 1, 2]);

/**
 * Why the params of a `SendMessage` or `SendStreamingMessage` request are not a message the
 * agent can take (JSON-RPC -32602), or `undefined` when they are (or the method carries no
 * message). The SDK reads an unknown role as "unrecognized" and an empty part list as a
 * message: both are refused here, naming the field, before anything runs.
 */
export function invalidMessageParams(method: string, params: unknown): string | undefined {
  if (!MESSAGE_METHODS.has(method)) return undefined;
  if (!isRecord(params)) return `${method} needs params: { message: { role, parts, ... } }.`;
  const message = params['message'];
  if (!isRecord(message))
    return `${method} needs params.message: a Message object with a role and parts.`;
  if (!ROLES.has(message['role']))
    return `params.message.role must be "ROLE_USER" or "ROLE_AGENT" (got ${describe(message['role'])}).`;
  const parts = message['parts'];
  if (!Array.isArray(parts) || parts.length === 0)
    return `params.message.parts must be a non-empty array of parts (got ${describe(parts)}), e.g. [{ "text": "Hello" }].`;
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A short description of a client's value for an error message (never the whole value). */
function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return value.length === 0 ? 'an empty array' : 'an array';
  if (value === null || typeof value !== 'object') {
    const text = JSON.stringify(value);
    return text.length > 40 ? `${text.slice(0, 40)}…` : text;
  }
  return 'an object';
}
