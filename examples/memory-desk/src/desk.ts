import type { ChatModel, ChatRequest, JsonObject, MemoryStore } from '@rxagent/core';
import { ScriptedChatModel, type ScriptedTurn } from '@rxagent/core/testing';
import { LongTermMemory } from '@rxagent/memory';
import { ReActAgent } from '@rxagent/react-agent';

/** The text of a chat message's content. */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) => (typeof part === 'object' && part && 'text' in part ? String(part.text) : ''))
    .join('');
}

const STATEMENT = /\[day (\d+)\][\s\S]*?my (\w+) is (?:now |not [\w-]+, it is )?([\w-]+)/iu;

/**
 * A stand-in for an observer model: it reads `[day N] … my <attribute> is <value>` in the
 * exchange and saves `On day N the customer said their <attribute> is <value>.` — what a
 * real observer model would be asked to do, deterministically.
 */
export function scriptedObserver(): ScriptedChatModel {
  const turn = (request: ChatRequest): ScriptedTurn => {
    const exchange = contentText(request.messages.at(-1)?.content);
    const found = STATEMENT.exec(exchange);
    const facts = found
      ? [`On day ${found[1]} the customer said their ${found[2]} is ${found[3]}.`]
      : [];
    return { toolCalls: [{ name: 'save_facts', arguments: { facts } }] };
  };
  return new ScriptedChatModel(
    Array.from({ length: 10_000 }, () => turn),
    { modelName: 'observer' },
  );
}

const FACT = /On day (\d+) the customer said their (\w+) is ([\w-]+)\./gu;

/**
 * A stand-in for the desk's model: a statement gets "Noted."; a question about an
 * attribute is answered from the memory block the request carries — the fact of the latest
 * day among those recalled, as a model reading dated facts would.
 */
export function scriptedDeskModel(): ScriptedChatModel {
  const turn = (request: ChatRequest): string => {
    const last = contentText(
      request.messages.filter((m) => m.role === 'user' && m.name !== 'memory').at(-1)?.content,
    );
    const asked = /what is my (\w+)/iu.exec(last)?.[1];
    if (asked === undefined) return 'Noted.';
    const memory = request.messages.filter((m) => m.role === 'user' && m.name === 'memory').at(-1);
    let best: { day: number; value: string } | undefined;
    for (const match of contentText(memory?.content).matchAll(FACT)) {
      const day = Number(match[1]);
      if (match[2] === asked && (best === undefined || day > best.day))
        best = { day, value: match[3]! };
    }
    return best ? `Your ${asked} is ${best.value}.` : `I do not know your ${asked} yet.`;
  };
  return new ScriptedChatModel(
    Array.from({ length: 10_000 }, () => turn),
    { modelName: 'desk' },
  );
}

/**
 * The desk's long-term memory: per customer (`callContext.customerId`, or `customerId` when
 * the memory serves one customer), facts only, recalled 5 at a time.
 */
export function deskMemory(
  store: MemoryStore,
  options: { readonly customerId?: string; readonly observer?: ChatModel } = {},
): LongTermMemory {
  const { customerId, observer = scriptedObserver() } = options;
  return new LongTermMemory({
    store,
    namespace: (ctx?: JsonObject) => ['customers', String(customerId ?? ctx?.['customerId'])],
    recall: { limit: 5 },
    observer: { model: observer },
  });
}

/** A support desk agent that remembers each customer (static recall before each answer). */
export function deskAgent(
  memory: LongTermMemory,
  model: ChatModel = scriptedDeskModel(),
): ReActAgent {
  return new ReActAgent({
    name: 'desk',
    sysPrompt: 'You are a support desk. Use what you remember about the customer.',
    model,
    longTermMemory: memory,
    longTermMemoryMode: 'static',
  });
}
