import { isJsonObject, type JsonObject, type Tool, tool } from '@rxagent/core';
import type { LongTermMemory } from './longTermMemory.js';
import { stableJson } from './memoryBlock.js';

/**
 * The tools of the `agent` mode, on `memory`, each acting on the namespace of the calling
 * agent call's `callContext`: `memory_search({ query })`, `memory_save({ text, key? })`,
 * `memory_forget({ key })` and, when `memory` keeps working memory, `memory_update({ patch })`
 * (a JSON Merge Patch; a patch the schema refuses, or a conflict that outlasts the retries,
 * is an error result the model reads).
 */
export function memoryTools(memory: LongTermMemory): Tool<JsonObject>[] {
  const tools: Tool<JsonObject>[] = [
    tool({
      name: 'memory_search',
      description: 'Searches long-term memory about the user for facts matching the query words.',
      parameters: objectSchema({ query: { type: 'string' } }, ['query']),
      execute: async (args, context) => {
        const query = stringArg(args, 'query', 'memory_search');
        const namespace = memory.namespaceOf(context.callContext);
        const found = await memory.search(namespace, query, context.signal);
        if (found.length === 0) return 'No memory matches.';
        return found
          .map((item) => `[${item.key}] ${String(item.value['text'] ?? stableJson(item.value))}`)
          .join('\n');
      },
    }),
    tool({
      name: 'memory_save',
      description:
        'Saves a durable fact about the user to long-term memory. Give key to replace a fact saved before.',
      parameters: objectSchema({ text: { type: 'string' }, key: { type: 'string' } }, ['text']),
      execute: async (args, context) => {
        const text = stringArg(args, 'text', 'memory_save');
        const key = args['key'] === undefined ? undefined : stringArg(args, 'key', 'memory_save');
        const saved = await memory.save(context.callContext, text, key);
        return `Saved as ${saved}.`;
      },
    }),
    tool({
      name: 'memory_forget',
      description: 'Forgets the long-term memory fact with this key.',
      parameters: objectSchema({ key: { type: 'string' } }, ['key']),
      execute: async (args, context) => {
        const key = stringArg(args, 'key', 'memory_forget');
        await memory.forget(context.callContext, key);
        return `Forgot ${key}.`;
      },
    }),
  ];
  if (memory.hasWorkingMemory) {
    tools.push(
      tool({
        name: 'memory_update',
        description:
          'Updates the working memory about the user with a JSON Merge Patch: named fields are set, null removes a field, fields not named stay as they are.',
        parameters: objectSchema({ patch: { type: 'object' } }, ['patch']),
        execute: async (args, context) => {
          const patch = args['patch'];
          if (!isJsonObject(patch))
            throw new TypeError('memory_update: patch must be a JSON object.');
          const written = await memory.updateWorkingMemory(context.callContext, patch);
          return `Working memory is now ${stableJson(written)}.`;
        },
      }),
    );
  }
  return tools;
}

function objectSchema(properties: JsonObject, required: string[]): JsonObject {
  return { type: 'object', properties, required, additionalProperties: false };
}

function stringArg(args: JsonObject, name: string, where: string): string {
  const value = args[name];
  if (typeof value !== 'string' || value.trim() === '')
    throw new TypeError(`${where}: ${name} must be a non-empty string.`);
  return value;
}
