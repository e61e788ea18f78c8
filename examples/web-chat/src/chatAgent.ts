import { type ChatModel, Toolkit } from '@rxagent/core';
import { ReActAgent } from '@rxagent/react-agent';
import { bookHotelTool, getWeatherTool } from './tools.js';

/**
 * The chat's agent for one conversation (one per AG-UI thread: it keeps the thread's memory).
 * `book_hotel` is defined with `needsApproval: true`, so a reply that calls it ends before
 * anything runs with `generateReason: 'approval_required'`, which `@rxagent/ag-ui` sends as a
 * `tool_approval` interrupt; the page's Approve/Deny answers it with a resume entry.
 */
export function chatAgent(model: ChatModel): ReActAgent {
  return new ReActAgent({
    name: 'assistant',
    sysPrompt:
      'You are a friendly travel assistant in a web chat. Use get_weather for forecasts (never ' +
      'guess) and book_hotel to book rooms; the user approves each booking. Keep answers short.',
    model,
    toolkit: new Toolkit([getWeatherTool, bookHotelTool]),
  });
}
