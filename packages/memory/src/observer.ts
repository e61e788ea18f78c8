import {
  type ChatModel,
  ChatResponseAccumulator,
  type ToolSchema,
  type Usage,
} from '@rxagent/core';
import { defer, map, type Observable, reduce } from 'rxjs';

/** The observer's default instructions. */
export const DEFAULT_OBSERVER_INSTRUCTIONS =
  'You maintain long-term memory about the user. Read the exchange and call save_facts with ' +
  'the durable facts it states about the user (preferences, details, decisions, corrections), ' +
  'each a short standalone sentence naming its subject. When a fact changes an earlier one, ' +
  'state the new fact in full. Save nothing about the assistant or small talk; an empty list ' +
  'is fine.';

/** The one tool the observer is asked with. */
export const SAVE_FACTS_TOOL: ToolSchema = {
  type: 'function',
  function: {
    name: 'save_facts',
    description: 'Saves durable facts about the user learned in this exchange.',
    parameters: {
      type: 'object',
      properties: { facts: { type: 'array', items: { type: 'string' } } },
      required: ['facts'],
      additionalProperties: false,
    },
  },
};

/** What the observer made of one exchange. */
export interface Observation {
  readonly facts: readonly string[];
  readonly usage: Usage | undefined;
  /** The model that answered, when it said. */
  readonly model: string | undefined;
}

/**
 * Asks the observer model which facts of one exchange to remember: one request with the
 * tool `save_facts` forced. Facts that are not non-empty strings are dropped; a reply
 * without a valid call saves nothing. Cold; emits one observation.
 */
export function observeExchange(
  model: ChatModel,
  instructions: string | undefined,
  exchange: { readonly input: string; readonly reply: string },
  signal?: AbortSignal,
): Observable<Observation> {
  return defer(() =>
    model.stream({
      messages: [
        { role: 'system', content: instructions ?? DEFAULT_OBSERVER_INSTRUCTIONS },
        { role: 'user', content: `User: ${exchange.input}\n\nAssistant: ${exchange.reply}` },
      ],
      tools: [SAVE_FACTS_TOOL],
      toolChoice: { name: 'save_facts' },
      ...(signal !== undefined && { signal }),
    }),
  ).pipe(
    reduce((acc, chunk) => {
      acc.add(chunk);
      return acc;
    }, new ChatResponseAccumulator()),
    map((acc) => {
      const response = acc.response();
      const facts: string[] = [];
      for (const call of response.toolCalls) {
        if (call.name !== 'save_facts') continue;
        facts.push(...factsOf(call.arguments));
      }
      return { facts, usage: response.usage, model: response.model };
    }),
  );
}

function factsOf(args: string): string[] {
  try {
    const parsed = JSON.parse(args) as { facts?: unknown };
    if (!Array.isArray(parsed.facts)) return [];
    return parsed.facts.filter(
      (fact): fact is string => typeof fact === 'string' && fact.trim() !== '',
    );
  } catch {
    return [];
  }
}
