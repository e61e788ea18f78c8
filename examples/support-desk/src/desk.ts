import { type ChatModel, Toolkit } from '@rxagent/core';
import { ReActAgent } from '@rxagent/react-agent';
import { lookupInvoices, searchKnowledgeBase } from './deskData.js';

/** The models of the desk's agents, one each (a scripted model plays one agent's part). */
export interface DeskModels {
  readonly triage: ChatModel;
  readonly billing: ChatModel;
  readonly technical: ChatModel;
  readonly researcher: ChatModel;
}

/** The agents of the support desk. */
export interface Desk {
  readonly triage: ReActAgent;
  readonly billing: ReActAgent;
  readonly technical: ReActAgent;
  readonly researcher: ReActAgent;
}

/**
 * Builds the desk: `triage` only routes (a `transfer_to_billing` and a `transfer_to_technical`
 * tool, from its `handoffs`); `billing` reads the ledger; `technical` consults `researcher`
 * through `researcher.asTool()`, and the researcher searches the knowledge base. The
 * researcher keeps its own memory: it sees only the requests the technical agent writes.
 */
export function createDesk(models: DeskModels): Desk {
  const billing = new ReActAgent({
    name: 'billing',
    description: 'Charges, invoices and refunds.',
    sysPrompt:
      'You are the billing desk. Look the customer up with lookup_invoices and answer from what it returns: amounts, invoice ids, refunds due. Be brief.',
    model: models.billing,
    toolkit: new Toolkit([lookupInvoices]),
  });
  const researcher = new ReActAgent({
    name: 'researcher',
    description: 'Finds the knowledge-base article that answers a technical question.',
    sysPrompt:
      'Search the knowledge base with search_kb and report what the best article says, with its id. Do not invent anything.',
    model: models.researcher,
    toolkit: new Toolkit([searchKnowledgeBase]),
  });
  const technical = new ReActAgent({
    name: 'technical',
    description: 'Devices, connectivity and setup problems.',
    sysPrompt:
      'You are the technical desk. Ask the researcher (ask_researcher) for the knowledge-base answer before advising, then give the customer clear steps.',
    model: models.technical,
    toolkit: new Toolkit([
      researcher.asTool({
        name: 'ask_researcher',
        description: 'Ask the researcher to look a technical problem up in the knowledge base.',
      }),
    ]),
  });
  const triage = new ReActAgent({
    name: 'triage',
    sysPrompt:
      'You are the front desk. Never answer the customer yourself: hand every message to the right desk with its transfer tool, with a short reason.',
    model: models.triage,
    handoffs: [billing, technical],
  });
  return { triage, billing, technical, researcher };
}
