import {
  type CallContext,
  StructuredOutputError,
  type StructuredOutputSchema,
  type Tool,
  type Toolkit,
  type ToolParameters,
  type ValidationIssue,
} from '@rxagent/core';
import { ReActCallState, type Transcript } from '@rxagent/react-agent';
import { GENERATE_RESPONSE, responseParameters, responseTool } from './responseTool.js';
import type { StructuredOutputReminder } from './structuredOutputReminder.js';

/** How a structured call behaves; fixed per agent. */
export interface StructuredCallSettings {
  readonly agentName: string;
  readonly reminder: StructuredOutputReminder;
  readonly maxStructuredRetries: number;
}

/**
 * The bookkeeping of one structured-output call: its `generate_response` tool, the responses
 * that tool accepted, the failures so far, and the ids of what the call added to memory only
 * for structured output (reminders, rejected plain-text drafts), so they can be compacted away.
 */
export class StructuredCall {
  readonly parameters: ToolParameters;
  readonly tool: Tool<{ response: unknown }>;
  readonly reminderIds = new Set<string>();
  readonly draftIds = new Set<string>();
  failures = 0;
  succeeded = false;
  readonly #accepted = new Map<string, unknown>();

  /** Throws `InvalidArgumentError` when `schema` is not usable (see `responseParameters`). */
  constructor(
    readonly schema: StructuredOutputSchema,
    readonly settings: StructuredCallSettings,
  ) {
    this.parameters = responseParameters(schema);
    this.tool = responseTool(this.parameters, (id, response) => this.#accepted.set(id, response));
  }

  /** Whether `generate_response` ran (its arguments were valid) for this tool call id. */
  hasAccepted(toolCallId: string): boolean {
    return this.#accepted.has(toolCallId);
  }

  /** The validated response of tool call `toolCallId` (parsed, defaults applied). */
  responseOf(toolCallId: string): unknown {
    return this.#accepted.get(toolCallId);
  }

  /**
   * Counts one failure (a plain-text answer, or a reply whose `generate_response` calls were
   * all rejected). Returns the `StructuredOutputError` to fail the call with once this is
   * failure number `maxStructuredRetries + 1`, else `undefined`.
   */
  recordFailure(
    problem: string,
    issues?: readonly ValidationIssue[],
  ): StructuredOutputError | undefined {
    this.failures++;
    const { agentName, maxStructuredRetries } = this.settings;
    if (this.failures <= maxStructuredRetries) return undefined;
    return new StructuredOutputError(
      `Agent "${agentName}" got no valid structured response after ${this.failures} attempts (maxStructuredRetries: ${maxStructuredRetries}). Last problem: ${problem} Simplify the schema, raise maxStructuredRetries, or use a model that supports tool calling.`,
      issues === undefined ? { lastProblem: problem } : { lastProblem: problem, issues },
    );
  }
}

/**
 * The state of a structured call: a ReActCallState whose toolkit is the agent's toolkit
 * extended with this call's `generate_response` (so the tool never leaks to other agents
 * sharing the toolkit), plus the ids of the messages memory held when the call started.
 */
export class StructuredCallState extends ReActCallState {
  constructor(
    context: CallContext,
    toolkit: Toolkit,
    transcript: Transcript,
    readonly structured: StructuredCall,
    readonly preexisting: ReadonlySet<string>,
  ) {
    super(context, toolkit, transcript);
    // Its failures count against maxStructuredRetries, not maxToolFailures.
    this.uncountedTools.add(GENERATE_RESPONSE);
  }
}
