import { isAbsolute, relative } from 'node:path';
import { type ChatModel, type JsonFileSession, Toolkit } from '@rxagent/core';
import { ReActAgent } from '@rxagent/react-agent';
import { compileReportTool, publishReportTool } from './tools.js';
import type { Input } from './userInput.js';

/** Where the examples print: a stream, like `process.stdout`. */
export type Out = NodeJS.WritableStream & { readonly isTTY?: boolean };

/** The key the conversation is saved under. */
export const SESSION_KEY = 'incident-assistant';

/** One entry of the run's timeline: what happened, in milliseconds since the start. */
export interface TimelineEntry {
  readonly at: number;
  readonly what: string;
}

/** What every part of the program shares. */
export interface RunContext {
  readonly out: Out;
  readonly env: NodeJS.ProcessEnv;
  /**
   * Keypress to interrupt and a prompt to approve (a TTY); else a timer, and a call waiting
   * for approval is denied (nobody is there to approve it) unless `approve` says otherwise.
   */
  readonly interactive: boolean;
  /** Approve the held call without asking: a human decided in advance (`--approve`). */
  readonly approve: boolean;
  readonly input: Input;
  readonly session: JsonFileSession;
  /** Milliseconds the report tool spends per month of archive. */
  readonly monthMs: number;
  /** Non-interactive runs interrupt the long scan this long after it starts. */
  readonly interruptAfterMs: number;
  readonly timeline: TimelineEntry[];
  /** Milliseconds since the run started. */
  readonly now: () => number;
  /** Appends to the timeline. */
  readonly log: (what: string) => void;
}

/** The incident assistant: a ReActAgent with the slow report tool and the publish tool. */
export function createAssistant(model: ChatModel, context: RunContext): ReActAgent {
  const publish = publishReportTool(context.session.dir, (file) =>
    context.log(`publish_report ran (${file})`),
  );
  return new ReActAgent({
    name: 'assistant',
    sysPrompt:
      'You are an incident-report assistant. Build reports with compile_report (it is slow: scan only the months you need). ' +
      'Call publish_report only when the user asks you to publish, with the full report text as the body. Keep answers short.',
    model,
    toolkit: new Toolkit([compileReportTool(context.monthMs, context.log), publish]),
  });
}

/** `file` relative to the working directory when it is below it, else as given. */
export function shortPath(file: string): string {
  const rel = relative(process.cwd(), file);
  return rel === '' ? '.' : rel.startsWith('..') || isAbsolute(rel) ? file : rel;
}
