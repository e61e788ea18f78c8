import { type ChatModel, type Hook, Toolkit, toolUses } from '@rxagent/core';
import { ReActAgent } from '@rxagent/react-agent';
import { bookHotelTool, getWeatherTool, NEEDS_APPROVAL } from './tools.js';

/**
 * Holds a reply that calls a tool in `NEEDS_APPROVAL` before anything runs: the call ends
 * with `generateReason: 'tool_calls_stopped'`, which `@rxagent/ag-ui` sends as a
 * `tool_approval` interrupt; the page's Approve/Deny answers it with a resume entry.
 */
export const approvalHook: Hook = {
  name: 'approval',
  onEvent(event) {
    if (event.type !== 'postReasoning') return;
    if (toolUses(event.reply).some((call) => NEEDS_APPROVAL.has(call.name))) event.stopAgent();
  },
};

/** The chat's agent for one conversation (one per AG-UI thread: it keeps the thread's memory). */
export function chatAgent(model: ChatModel): ReActAgent {
  return new ReActAgent({
    name: 'assistant',
    sysPrompt:
      'You are a friendly travel assistant in a web chat. Use get_weather for forecasts (never ' +
      'guess) and book_hotel to book rooms; the user approves each booking. Keep answers short.',
    model,
    toolkit: new Toolkit([getWeatherTool, bookHotelTool]),
    hooks: [approvalHook],
  });
}
