/**
 * knowledge-base: answer a policy question from a bundled markdown knowledge base.
 *
 *   npx -y pnpm@10.34.9 --filter @rxagent/example-knowledge-base start
 *
 * Shows: a real ranked search (BM25, core's `Bm25Index`) over `kb/*.md`; a postActing hook that
 * redacts secrets (API keys, bearer tokens, internal URLs) from tool output before the
 * model or memory sees it; a tool timeout (the archive tool hangs, the toolkit gives up);
 * and the model limited to the registered tools (a call to any other tool is refused).
 */
import { fileURLToPath } from 'node:url';
import { type Msg, redactSecretsHook, Toolkit, userMsg } from '@rxagent/core';
import { chooseModel, type ExampleOptions, runMain } from '@rxagent/example-kit';
import { ReActAgent } from '@rxagent/react-agent';
import { renderEvents } from '@rxagent/terminal';
import { filter, lastValueFrom, map } from 'rxjs';
import { INTERNAL_URL } from './internalUrl.js';
import { readDocTool, searchArchiveTool, searchKbTool } from './kbTools.js';
import { KnowledgeBase } from './knowledgeBase.js';
import { kbScript } from './script.js';

export const KB_DIR = fileURLToPath(new URL('../kb/', import.meta.url));
export const QUESTION = 'What are the Q3 sales commission rules?';

/** Options of `main`: the kit's `ExampleOptions`, plus the tool timeout. */
export interface MainOptions extends ExampleOptions {
  /** How long any tool may run (default 1500 ms). */
  readonly toolTimeoutMs?: number;
}

/** What a run leaves behind: the reply, and the agent's memory (the test checks it for secrets). */
export interface KbRun {
  readonly reply: Msg;
  readonly memory: readonly Msg[];
}

/** Runs the scenario once; resolves with the reply and the agent's memory afterwards. */
export async function main(options: MainOptions = {}): Promise<KbRun> {
  const out = options.out ?? process.stdout;
  const { model, banner } = chooseModel(
    () => kbScript(QUESTION, options.paceMs ?? 15),
    options.env,
  );
  out.write(`${banner}\n\nuser: ${QUESTION}\n`);

  const kb = await KnowledgeBase.load(KB_DIR);
  // One timeout for every tool of this toolkit; a tool can still set its own `timeoutMs`.
  const toolkit = new Toolkit([searchKbTool(kb), readDocTool(kb), searchArchiveTool], {
    timeoutMs: options.toolTimeoutMs ?? 1_500,
  });
  const agent = new ReActAgent({
    name: 'kb',
    sysPrompt:
      'You answer questions about company policy using only the knowledge base: search with ' +
      'search_kb, read documents with read_doc, and cite the document id in [brackets]. ' +
      'If a tool fails, say so and answer from what you have.',
    model,
    toolkit,
    hooks: [
      // The shipped hook knows API keys, tokens and private keys; this example adds internal URLs.
      redactSecretsHook({
        patterns: [INTERNAL_URL],
        onRedact: (tool, count) =>
          out.write(`🔒 redacted ${count} secret${count === 1 ? '' : 's'} from ${tool} output\n`),
      }),
    ],
  });

  const reply = await lastValueFrom(
    agent.stream(userMsg(QUESTION)).pipe(
      renderEvents({ out }),
      filter((event) => event.type === 'reply'),
      map((event) => event.msg),
    ),
  );
  return { reply, memory: agent.memory.messages() };
}

runMain(import.meta.url, main);
