/**
 * What a code fragment in the docs may use without defining it: a TypeScript block with no
 * `import` gets the packages' exports, RxJS, `z` and these names imported for it (see
 * docs/README.md). Declarations only: a block marked `run` must not use them.
 */
import type { ServerResponse } from 'node:http';
import type { EventEncoder } from '@ag-ui/encoder';
import type {
  AgentBase,
  CallContext,
  ChatModel,
  Msg,
  PreReasoningEvent,
  Tool,
  Toolkit,
} from '@rxagent/core';
import type { ReActAgent } from '@rxagent/react-agent';
import type { Observable } from 'rxjs';

/** An agent to call or stream. */
export declare const agent: ReActAgent;
/** A fresh agent that takes over a saved state. */
export declare const fresh: ReActAgent;
/** Any chat model (OpenAIChatModel, ScriptedChatModel …). */
export declare const model: ChatModel;
/** A system prompt. */
export declare const sysPrompt: string;
/** A question or topic for the agents. */
export declare const question: string;
export declare const topic: string;
/** Agents of a pipeline or hub. */
export declare const researcher: AgentBase;
export declare const writer: AgentBase;
export declare const editor: AgentBase;
export declare const optimist: AgentBase;
export declare const pessimist: AgentBase;
export declare const alice: AgentBase;
export declare const bob: AgentBase;
export declare const carol: AgentBase;
/** Agents of a support desk that hand off to each other. */
export declare const triage: AgentBase;
export declare const billing: AgentBase;
export declare const technical: AgentBase;
export declare const planner: AgentBase;
export declare const critic: AgentBase;
/** Toolkits of an application's own tools, and a user's ticket. */
export declare const kbTools: Toolkit;
export declare const ledgerTools: Toolkit;
export declare const ticket: string;
/** A Redis URL. */
export declare const url: string;
/** A tool. */
export declare const getWeather: Tool;
/** A weather service a tool calls. */
export declare function fetchWeather(
  city: string,
  unit: 'c' | 'f',
  signal: AbortSignal,
): Promise<string>;
/** An HTTP response to write server-sent events to, and AG-UI's encoder for them. */
export declare const res: ServerResponse;
export declare const encoder: EventEncoder;
/** The call context, an event and a model step of a hand-written call (see `Phases`). */
export declare const context: CallContext;
export declare const preReasoning: PreReasoningEvent;
export declare function replyTo(messages: Msg[]): Observable<Msg>;
