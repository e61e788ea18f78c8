import type { JsonObject } from '../json.js';
import type { ChatMessage } from '../model/chatMessage.js';
import type { ChatRequest, ModelOptions, ToolChoice, ToolSchema } from '../model/chatModel.js';
import { toWireToolChoice } from '../model/wireToolChoice.js';

/**
 * The Chat Completions body an OpenAI adapter would send for `request`, so the scripted
 * model can run the same validator as the strict server. Empty `tools` are omitted, as an
 * adapter must (the API rejects `tools: []`).
 */
export function toWireRequest(request: ChatRequest, model: string): Record<string, unknown> {
  const { tools, toolChoice, parallelToolCalls, options } = request;
  return {
    model,
    messages: request.messages,
    ...(tools && tools.length > 0 && { tools }),
    ...(toolChoice !== undefined && { tool_choice: toWireToolChoice(toolChoice) }),
    ...(parallelToolCalls !== undefined && { parallel_tool_calls: parallelToolCalls }),
    ...(options && wireOptions(options)),
  };
}

function wireOptions(options: ModelOptions): Record<string, unknown> {
  return {
    ...options.extra,
    ...(options.temperature !== undefined && { temperature: options.temperature }),
    ...(options.topP !== undefined && { top_p: options.topP }),
    ...(options.maxTokens !== undefined && { max_tokens: options.maxTokens }),
    ...(options.seed !== undefined && { seed: options.seed }),
    ...(options.stop !== undefined && { stop: options.stop }),
  };
}

/** The `ChatRequest` a validated Chat Completions body stands for (what script functions receive). */
export function fromWireRequest(body: JsonObject, signal: AbortSignal): ChatRequest {
  const options: ModelOptions = {
    ...(typeof body.temperature === 'number' && { temperature: body.temperature }),
    ...(typeof body.top_p === 'number' && { topP: body.top_p }),
    ...(typeof body.max_tokens === 'number' && { maxTokens: body.max_tokens }),
    ...(typeof body.max_completion_tokens === 'number' && {
      maxTokens: body.max_completion_tokens,
    }),
    ...(typeof body.seed === 'number' && { seed: body.seed }),
    ...(Array.isArray(body.stop) && { stop: body.stop.map(String) }),
    ...(typeof body.stop === 'string' && { stop: [body.stop] }),
  };
  return {
    messages: body.messages as unknown as ChatMessage[],
    ...(Array.isArray(body.tools) && { tools: body.tools as unknown as ToolSchema[] }),
    ...(body.tool_choice !== undefined && { toolChoice: fromWireToolChoice(body.tool_choice) }),
    ...(typeof body.parallel_tool_calls === 'boolean' && {
      parallelToolCalls: body.parallel_tool_calls,
    }),
    ...(Object.keys(options).length > 0 && { options }),
    signal,
  };
}

function fromWireToolChoice(choice: unknown): ToolChoice {
  if (choice === 'none' || choice === 'required') return choice;
  const fn = (choice as { function?: { name?: unknown } } | null)?.function;
  return typeof fn?.name === 'string' ? { name: fn.name } : 'auto';
}
