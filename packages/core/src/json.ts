/** A value that survives `JSON.stringify` / `JSON.parse` unchanged. */
export type JsonValue = string | number | boolean | null | JsonValue[] | JsonObject;

/** A JSON object: the shape of every state dict and of tool-call arguments. */
export interface JsonObject {
  [key: string]: JsonValue;
}

/** Whether `value` is a plain JSON object (not an array, not null). */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
