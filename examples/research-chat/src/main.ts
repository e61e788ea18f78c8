/**
 * research-chat: a long research conversation that stays within a small context window.
 *
 *   pnpm --filter @rxagent/example-research-chat start
 *
 * Shows: the ReActAgent `context` option — before each request the agent counts it
 * (system prompt, memory, tool schemas) and, when it would pass `maxTokens`, replaces the
 * oldest messages in memory with a summary written by the model — over dozens of turns
 * that each read a 5 KB source; the per-tool `maxResultChars` cut; and the request size
 * of every turn, measured with the same counter the agent uses.
 */
import {
  estimateTokens,
  type Msg,
  type TokenCounter,
  Toolkit,
  textOf,
  userMsg,
} from '@rxagent/core';
import { chooseModel, type ExampleOptions, runMain } from '@rxagent/example-kit';
import { ReActAgent } from '@rxagent/react-agent';
import { renderEvents } from '@rxagent/terminal';
import { filter, lastValueFrom, map } from 'rxjs';
import { researchScript } from './script.js';
import { readSourceTool, TOPICS } from './sources.js';

/** Options of `main`: the kit's, plus the length of the chat and the token budget. */
export interface MainOptions extends ExampleOptions {
  /** Research questions before the recap (default 30). */
  readonly turns?: number;
  /** The most tokens one request may count (default 4,000). */
  readonly maxTokens?: number;
  /** Print every streamed event of each turn, not just its summary line (default false). */
  readonly verbose?: boolean;
}

/** What one turn sent: the size of each of its model requests, by the agent's counter. */
export interface TurnReport {
  readonly turn: number;
  readonly requestTokens: readonly number[];
  readonly memoryMessages: number;
  readonly compressed: boolean;
}

/** What a run leaves behind, for the test. */
export interface ResearchRun {
  readonly maxTokens: number;
  readonly turns: readonly TurnReport[];
  readonly recap: Msg;
  readonly memory: readonly Msg[];
  readonly countTokens: TokenCounter;
}

/** Runs the chat: `turns` research questions, then a recap of everything found. */
export async function main(options: MainOptions = {}): Promise<ResearchRun> {
  const out = options.out ?? process.stdout;
  const turnsWanted = options.turns ?? 30;
  const maxTokens = options.maxTokens ?? 4_000;
  const countTokens = estimateTokens;
  const { model, banner } = chooseModel(
    () => researchScript(turnsWanted, options.paceMs ?? 0),
    options.env,
  );
  out.write(
    `${banner}\n\n${turnsWanted} research turns within ${maxTokens.toLocaleString('en-US')} tokens a request\n\n`,
  );

  const agent = new ReActAgent({
    name: 'researcher',
    sysPrompt:
      'You are a research assistant. For each topic, read its source with read_source and ' +
      'report its key figure in one sentence, quoting it exactly. When asked for a recap, list ' +
      'every key figure found so far.',
    model,
    toolkit: new Toolkit([readSourceTool]),
    // The budget: old turns become a model-written summary; the newest 4 messages stay.
    context: { maxTokens, keepRecent: 4, countTokens },
  });
  let requests: number[] = [];
  let compressed = false;
  agent.addHook({
    onEvent: (event) => {
      if (event.type === 'postCompress') compressed = true;
      if (event.type !== 'preReasoning' && event.type !== 'preSummary') return;
      const tools = event.type === 'preReasoning' ? event.tools : [];
      requests.push(
        countTokens({
          systemPrompt: event.systemPrompt,
          messages: event.messages,
          tools,
          selfName: agent.name,
        }),
      );
    },
  });

  const turns: TurnReport[] = [];
  const ask = async (text: string, turn: number): Promise<Msg> => {
    requests = [];
    compressed = false;
    const events = agent.stream(userMsg(text));
    const shown = options.verbose ? events.pipe(renderEvents({ out })) : events;
    const reply = await lastValueFrom(
      shown.pipe(
        filter((event) => event.type === 'reply'),
        map((event) => event.msg),
      ),
    );
    const report = {
      turn,
      requestTokens: requests,
      memoryMessages: agent.memory.messages().length,
      compressed,
    };
    turns.push(report);
    out.write(`${turnLine(report, maxTokens)}\n   ${firstLine(textOf(reply))}\n`);
    return reply;
  };

  for (let turn = 1; turn <= turnsWanted; turn++) {
    const topic = TOPICS[(turn - 1) % TOPICS.length]!;
    await ask(`Please research ${topic}?`, turn);
  }
  const recap = await ask('Recap everything we found, with every key figure.', turnsWanted + 1);
  out.write(`\n${textOf(recap)}\n`);
  return { maxTokens, turns, recap, memory: agent.memory.messages(), countTokens };
}

/** `turn  7 · requests 1,412 + 2,718 tokens (max 4,000) · memory 6 msgs · ⇣ compressed` */
function turnLine(report: TurnReport, maxTokens: number): string {
  const sizes = report.requestTokens.map((n) => n.toLocaleString('en-US')).join(' + ');
  const compressed = report.compressed ? ' · ⇣ compressed' : '';
  return `turn ${String(report.turn).padStart(2)} · requests ${sizes} tokens (max ${maxTokens.toLocaleString('en-US')}) · memory ${report.memoryMessages} msgs${compressed}`;
}

function firstLine(text: string): string {
  const line = text.split('\n')[0] ?? '';
  return line.length > 100 ? `${line.slice(0, 99)}…` : line;
}

runMain(import.meta.url, main);
