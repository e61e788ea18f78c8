import { AgentCard, type AgentInterface } from '@a2a-js/sdk';

/**
 * An A2A 1.0 agent card in its JSON form, as served at `/.well-known/agent-card.json`. Fields
 * left out get defaults: `version` `"1.0.0"`, `capabilities.streaming` true, text in and out
 * (`text/plain`), no skills, and — without `supportedInterfaces` — one JSON-RPC 1.0
 * interface at the URL the card was fetched from (its path minus
 * `/.well-known/agent-card.json`).
 */
export interface A2ACard {
  readonly name: string;
  readonly description: string;
  readonly version?: string;
  readonly supportedInterfaces?: readonly {
    readonly url: string;
    readonly protocolBinding: string;
    readonly protocolVersion: string;
    readonly tenant?: string;
  }[];
  readonly provider?: { readonly url: string; readonly organization: string };
  readonly documentationUrl?: string;
  readonly iconUrl?: string;
  readonly capabilities?: {
    readonly streaming?: boolean;
    readonly pushNotifications?: boolean;
    readonly extendedAgentCard?: boolean;
  };
  readonly defaultInputModes?: readonly string[];
  readonly defaultOutputModes?: readonly string[];
  readonly skills?: readonly {
    readonly id: string;
    readonly name: string;
    readonly description: string;
    readonly tags?: readonly string[];
    readonly examples?: readonly string[];
  }[];
  /** Any other field of the 1.0 AgentCard (security schemes, signatures, ...), as JSON. */
  readonly [field: string]: unknown;
}

/** Where agent cards are served, relative to the agent's base URL. */
export const AGENT_CARD_PATH = '/.well-known/agent-card.json';

/** The card the request handler works with, and how to serve it for a request. */
export interface ServedCard {
  readonly card: AgentCard;
  /** The card's JSON for a request to `cardUrl` (interfaces filled in when not given). */
  jsonFor(cardUrl: URL): unknown;
}

const PLACEHOLDER = 'http://127.0.0.1/';

/** Fills the defaults of `init` (see `A2ACard`). */
export function servedCard(init: A2ACard): ServedCard {
  const derived = init.supportedInterfaces === undefined || init.supportedInterfaces.length === 0;
  const card = AgentCard.fromJSON({
    version: '1.0.0',
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [],
    ...init,
    capabilities: { streaming: true, ...init.capabilities },
    supportedInterfaces: derived
      ? [{ url: PLACEHOLDER, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }]
      : init.supportedInterfaces,
  });
  return {
    card,
    jsonFor: (cardUrl) => {
      if (!derived) return AgentCard.toJSON(card);
      const base = new URL(cardUrl);
      base.pathname = base.pathname.slice(0, -AGENT_CARD_PATH.length) || '/';
      base.search = '';
      const iface: AgentInterface = {
        url: base.href.replace(/\/$/, ''),
        protocolBinding: 'JSONRPC',
        tenant: '',
        protocolVersion: '1.0',
      };
      return AgentCard.toJSON({ ...card, supportedInterfaces: [iface] });
    },
  };
}
