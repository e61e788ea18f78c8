import { type ChatModel, Toolkit } from '@rxagent/core';
import { ReActAgent } from '@rxagent/react-agent';
import { type Payment, payTool, searchFlightsTool } from './flights.js';

/** The two agents of the example. */
export interface Agents {
  /** The agent the person talks to; it delegates booking to `booking` through `asTool()`. */
  readonly travel: ReActAgent;
  /** The sub-agent that searches and pays. Its `pay` tool needs approval. */
  readonly booking: ReActAgent;
}

/**
 * A travel agent and its booking sub-agent, both on `model`. Payments the booking agent
 * makes are pushed onto `ledger`. Fresh agents made this way can load saved ones' state.
 */
export function createAgents(model: ChatModel, ledger: Payment[]): Agents {
  const booking = new ReActAgent({
    name: 'booking',
    description: 'Books flights: searches fares and pays for the chosen one.',
    sysPrompt:
      'You book flights. Search with search_flights, choose the cheapest direct flight, then ' +
      'pay for it with pay. Use the card the request names, else personal-visa. Answer with ' +
      'the flight, the price, the card and the confirmation code.',
    model,
    toolkit: new Toolkit([searchFlightsTool, payTool(ledger)]),
  });
  const travel = new ReActAgent({
    name: 'travel',
    sysPrompt:
      'You are a travel assistant. Hand every booking to the booking tool with the full ' +
      'request (route, date, traveller). Then tell the user what was booked, in one sentence.',
    model,
    toolkit: new Toolkit([booking.asTool()]),
  });
  return { travel, booking };
}
