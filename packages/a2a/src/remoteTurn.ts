import { type Message, type StreamResponse, type Task, TaskState } from '@a2a-js/sdk';
import { assistantMsg, type JsonObject, type Msg, type ToolUseBlock } from '@rxagent/core';
import { dataOfParts, pendingCallsOf, textOfParts } from './a2aParts.js';

/** How one exchange with a remote agent ended. */
export type TurnEnd =
  | { readonly kind: 'reply'; readonly msg: Msg }
  | { readonly kind: 'canceled'; readonly text: string }
  | { readonly kind: 'failed'; readonly state: string; readonly text: string };

const FINAL_STATES = new Set([
  TaskState.TASK_STATE_COMPLETED,
  TaskState.TASK_STATE_FAILED,
  TaskState.TASK_STATE_CANCELED,
  TaskState.TASK_STATE_REJECTED,
  TaskState.TASK_STATE_INPUT_REQUIRED,
  TaskState.TASK_STATE_AUTH_REQUIRED,
]);

/**
 * What the remote agent said in one exchange, from its stream responses (or its one send
 * result): the task id, the text of each artifact (appended chunks, or a final whole text
 * replacing them), the last status. `apply` returns the text the response added, so the
 * caller can stream it on.
 */
export class RemoteTurn {
  taskId: string | undefined;
  #state: TaskState | undefined;
  #statusMessage: Message | undefined;
  #message: Message | undefined;
  /** Artifacts updated in this exchange. */
  readonly #artifacts = new Map<string, string>();
  /** The last artifact of the last task snapshot (a plain send's result). */
  #snapshotText = '';

  /** Whether the task reached a final (or interrupted) state, or the agent answered with a message. */
  get ended(): boolean {
    return (
      this.#message !== undefined || (this.#state !== undefined && FINAL_STATES.has(this.#state))
    );
  }

  /** Records `response`; returns the new text it carries (`''` when none). */
  apply(response: StreamResponse): string {
    const payload = response.payload;
    switch (payload?.$case) {
      case 'task':
        return this.applyTask(payload.value);
      case 'message':
        this.#message = payload.value;
        return textOfParts(payload.value.parts);
      case 'statusUpdate':
        this.taskId ??= payload.value.taskId;
        this.#status(payload.value.status?.state, payload.value.status?.message);
        return '';
      case 'artifactUpdate': {
        this.taskId ??= payload.value.taskId;
        const artifact = payload.value.artifact;
        if (artifact === undefined) return '';
        return this.#artifact(
          artifact.artifactId,
          textOfParts(artifact.parts),
          payload.value.append,
        );
      }
      default:
        return '';
    }
  }

  /** Records a task (a send result or a stream's snapshot); returns its new text. */
  applyTask(task: Task): string {
    this.taskId ??= task.id;
    this.#status(task.status?.state, task.status?.message);
    // A task holds the artifacts of all its turns: this turn's answer is its last one.
    const last = task.artifacts.at(-1);
    this.#snapshotText = last === undefined ? '' : textOfParts(last.parts);
    return '';
  }

  /** How the exchange ended, as seen so far (a stream that just stopped counts as failed). */
  end(agentName: string): TurnEnd {
    if (this.#message !== undefined)
      return {
        kind: 'reply',
        msg: assistantMsg(textOfParts(this.#message.parts), { name: agentName }),
      };
    const statusText = textOfParts(this.#statusMessage?.parts);
    switch (this.#state) {
      case TaskState.TASK_STATE_COMPLETED:
        return {
          kind: 'reply',
          msg: assistantMsg(this.#text() || statusText, { name: agentName }),
        };
      case TaskState.TASK_STATE_INPUT_REQUIRED:
      case TaskState.TASK_STATE_AUTH_REQUIRED:
        return { kind: 'reply', msg: this.#approvalReply(agentName, statusText) };
      case TaskState.TASK_STATE_CANCELED:
        return { kind: 'canceled', text: statusText };
      case TaskState.TASK_STATE_REJECTED:
        return { kind: 'failed', state: 'rejected', text: statusText };
      case TaskState.TASK_STATE_FAILED:
        return { kind: 'failed', state: 'failed', text: statusText };
      default:
        return {
          kind: 'failed',
          state: 'unfinished',
          text: 'the response ended before the task did',
        };
    }
  }

  #status(state: TaskState | undefined, message: Message | undefined): void {
    if (state === undefined || state === TaskState.TASK_STATE_UNSPECIFIED) return;
    this.#state = state;
    this.#statusMessage = message;
  }

  #artifact(id: string, text: string, append: boolean): string {
    const before = this.#artifacts.get(id) ?? '';
    if (append) {
      this.#artifacts.set(id, before + text);
      return text;
    }
    this.#artifacts.set(id, text);
    // A whole text that continues what was streamed adds only its rest.
    if (text.startsWith(before)) return text.slice(before.length);
    return '';
  }

  #text(): string {
    if (this.#artifacts.size === 0) return this.#snapshotText;
    return [...this.#artifacts.values()].join('\n');
  }

  /** The reply for a task waiting for input: its text, and the pending calls as metadata. */
  #approvalReply(agentName: string, statusText: string): Msg {
    const calls = pendingCallsOf(dataOfParts(this.#statusMessage?.parts));
    const pending: ToolUseBlock[] = calls.map((call) => ({
      type: 'tool_use',
      id: call.id,
      name: call.name,
      input: call.arguments,
    }));
    const text =
      statusText ||
      `Waiting for approval of ${calls.map((call) => `${call.name}(${JSON.stringify(call.arguments)})`).join(', ') || 'the next step'}.`;
    return assistantMsg(text, {
      name: agentName,
      metadata: {
        generateReason: 'approval_required',
        pendingToolCalls: pending as unknown as JsonObject[],
        approvalRequired: calls.filter((call) => call.needsApproval).map((call) => call.id),
        a2aTaskId: this.taskId ?? '',
      },
    });
  }
}
