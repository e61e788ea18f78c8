import type { Recalled } from './longTermMemory.js';

/**
 * The text of the memory block a call's model sees: the working memory (as JSON with sorted
 * keys, so equal memory is equal bytes) and the recalled facts, best first. `undefined` when
 * there is nothing to show.
 */
export function memoryBlockText(recalled: Recalled, showWorking: boolean): string | undefined {
  const parts: string[] = [];
  const working = recalled.workingMemory.value;
  if (showWorking && Object.keys(working).length > 0)
    parts.push(`Working memory (update it with memory_update):\n${stableJson(working)}`);
  const facts = recalled.facts
    .map((item) => item.value['text'])
    .filter((text): text is string => typeof text === 'string');
  if (facts.length > 0)
    parts.push(`Recalled facts:\n${facts.map((fact) => `- ${fact}`).join('\n')}`);
  if (parts.length === 0) return undefined;
  return `<long_term_memory>\n${parts.join('\n\n')}\n</long_term_memory>`;
}

/** JSON with object keys sorted at every level. */
export function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner !== null && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner,
  );
}
