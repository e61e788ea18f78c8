import type { ScriptedTurn } from '@rxagent/core/testing';

/**
 * The benchmark conversation, shared by every contender and by the scripted server: the
 * model asks for two tools in parallel in each of 3 rounds, then answers (4 model calls).
 */
export const SYSTEM_PROMPT = 'You are a travel assistant. Use the tools to answer precisely.';

/** The user's question of a normal run. */
export const USER_PROMPT = 'Compare the weather and the local time in Paris, Tokyo and Lima.';

/** A run whose last model call never answers (the memory suite parks agents there). */
export const PARK_PROMPT = `[park] ${USER_PROMPT}`;

/** A run whose first reply is a long text (the abort suite cuts it mid-stream). */
export const LONG_PROMPT = '[long] Tell me everything about Paris.';

/** Model calls per run: 3 tool rounds + the final answer. */
export const CALLS_PER_RUN = 4;

const CITIES = ['Paris', 'Tokyo', 'Lima'] as const;

/** The final answer the model streams (word by word), and every contender must return. */
export const FINAL_ANSWER =
  'Paris is sunny at 21°C and it is 14:00 there; Tokyo is cloudy at 18°C at 21:00; ' +
  'Lima is misty at 16°C at 07:00. Pack a light jacket for Lima and sunglasses for Paris.';

const LONG_ANSWER = Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ');

/** The fewest fields of a wire message the script reads. */
interface WireMessage {
  readonly role: string;
  readonly content?: unknown;
  readonly tool_calls?: unknown;
}

/**
 * What the scripted model answers to a request with these wire `messages`: the next tool
 * round, or the final answer once 3 rounds are done. Pure, so the server and the in-process
 * model answer alike; `onPark` is told when a `[park]` run reaches its last call.
 */
export function scenarioTurn(messages: readonly WireMessage[], onPark?: () => void): ScriptedTurn {
  const user = messages.find((message) => message.role === 'user');
  const prompt = typeof user?.content === 'string' ? user.content : '';
  if (prompt.startsWith('[long]')) return { text: LONG_ANSWER };
  const rounds = messages.filter(
    (message) => message.role === 'assistant' && Array.isArray(message.tool_calls),
  ).length;
  const city = CITIES[rounds];
  if (city !== undefined) {
    return {
      toolCalls: [
        { name: 'get_weather', arguments: { city } },
        { name: 'get_time', arguments: { city } },
      ],
    };
  }
  if (prompt.startsWith('[park]')) {
    onPark?.();
    // A scripted error waits its delay before sending anything, headers included: the
    // request stays open with the model "thinking", as long as the client keeps it.
    return { error: { status: 503, message: 'parked' }, delayMs: 600_000 };
  }
  return { text: FINAL_ANSWER };
}
