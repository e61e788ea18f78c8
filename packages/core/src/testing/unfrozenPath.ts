/**
 * Where `value` is not frozen all through, or `undefined` when it is: the path of the first
 * object or array that is not frozen, e.g. `"content[1].input.city"` (`path` names `value`).
 * For tests that check the contract that Msgs are deeply frozen: a Msg from any factory or
 * API, a hook event's Msgs, a reply restored from a session.
 *
 * @example
 * ```ts
 * const reply = await agent.reply('Hello');
 * expect(unfrozenPath(reply, 'reply')).toBeUndefined();
 * ```
 */
export function unfrozenPath(value: unknown, path = 'value'): string | undefined {
  return firstUnfrozen(value, path, new Set());
}

function firstUnfrozen(value: unknown, path: string, seen: Set<object>): string | undefined {
  if (typeof value !== 'object' || value === null || seen.has(value)) return undefined;
  if (!Object.isFrozen(value)) return path;
  seen.add(value);
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const found = firstUnfrozen(value[index], `${path}[${index}]`, seen);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  for (const key of Object.keys(value)) {
    const found = firstUnfrozen((value as Record<string, unknown>)[key], `${path}.${key}`, seen);
    if (found !== undefined) return found;
  }
  return undefined;
}
