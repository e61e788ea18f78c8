import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { JsonFileSession, Toolkit, tool, type VersionedSession } from '@rxagent/core';
import { ScriptedChatModel } from '@rxagent/core/testing';
import { ReActAgent } from '@rxagent/react-agent';
import { SqliteSession } from '@rxagent/sqlite';
import { z } from 'zod';

/** Where the checkpoints go: JSON files in the directory, or one SQLite file in it. */
export type CheckoutStore = 'json' | 'sqlite';

/** The session of `store` in `dir`. */
export function checkoutSession(dir: string, store: CheckoutStore): VersionedSession {
  return store === 'sqlite'
    ? new SqliteSession({ path: join(dir, 'checkout.db') })
    : new JsonFileSession(dir);
}

/**
 * The checkout agent: it looks the basket up (idempotent: safe to run again), charges the
 * card (not idempotent: never run twice) and ships. Each tool appends a line to `ledger`, so
 * the runs can be counted; `onShip` lets the crashing process die inside the last tool.
 */
export function checkoutAgent(
  session: VersionedSession,
  ledger: string,
  onShip: () => void,
): ReActAgent {
  const log = (line: string): void => appendFileSync(ledger, `${line}\n`);
  const lookup = tool({
    name: 'lookup_basket',
    description: 'The items and total of the basket.',
    parameters: z.object({}),
    idempotent: true,
    execute: () => {
      log('lookup_basket');
      return 'tea x2, total 6 EUR';
    },
  });
  const charge = tool({
    name: 'charge_card',
    description: 'Charges the card on file.',
    parameters: z.object({ amount: z.number() }),
    execute: ({ amount }) => {
      log(`charge_card ${amount}`);
      return `charged ${amount} EUR`;
    },
  });
  const ship = tool({
    name: 'ship_order',
    description: 'Hands the order to the carrier.',
    parameters: z.object({}),
    execute: () => {
      log('ship_order');
      onShip();
      return 'shipped, tracking TR-1';
    },
  });
  // The model's side, offline: what to answer depends only on the conversation so far.
  const model = new ScriptedChatModel(
    Array.from(
      { length: 8 },
      () => (request: { messages: { role: string; content?: unknown }[] }) => {
        const results = request.messages.filter((m) => m.role === 'tool');
        const text = results.map((m) => String(m.content)).join(' ');
        if (results.length === 0) return { toolCalls: [{ name: 'lookup_basket', arguments: {} }] };
        if (!text.includes('charged'))
          return { toolCalls: [{ name: 'charge_card', arguments: { amount: 6 } }] };
        if (!text.includes('shipped') && !text.includes('outcome is unknown'))
          return { toolCalls: [{ name: 'ship_order', arguments: {} }] };
        return text.includes('outcome is unknown')
          ? 'Paid 6 EUR. The shipping step was cut off by a restart, so please check the carrier before shipping again.'
          : 'Paid 6 EUR and shipped: tracking TR-1.';
      },
    ),
  );
  return new ReActAgent({
    name: 'checkout',
    sysPrompt: 'You check orders out.',
    model,
    toolkit: new Toolkit([lookup, charge, ship]),
    durable: { session, key: 'order-42' },
  });
}
