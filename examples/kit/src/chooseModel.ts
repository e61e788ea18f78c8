import { AnthropicChatModel } from '@rxagent/anthropic';
import type { ChatModel } from '@rxagent/core';
import { ScriptedChatModel, type ScriptedReply } from '@rxagent/core/testing';
import { OpenAIChatModel } from '@rxagent/react-agent';

/** Which model an example runs on. */
export interface ModelChoice {
  readonly model: ChatModel;
  readonly mode: 'offline' | 'live';
  /** One line for the top of the output, saying which mode is running. */
  readonly banner: string;
}

/** Whether the environment points at Anthropic's Messages API (or a server speaking it). */
export function anthropicConfigured(env: NodeJS.ProcessEnv = process.env): boolean {
  return Boolean(env['ANTHROPIC_API_KEY'] || env['ANTHROPIC_BASE_URL']);
}

/** Whether the environment points at a real model: Anthropic's or an OpenAI-compatible one. */
export function liveModelConfigured(env: NodeJS.ProcessEnv = process.env): boolean {
  return Boolean(env['OPENAI_API_KEY'] || env['OPENAI_BASE_URL']) || anthropicConfigured(env);
}

/**
 * The real model when the environment names one, else a `ScriptedChatModel` playing
 * `script`: hooks, tools, interrupts and state all run for real; only the model's words are
 * scripted. `ANTHROPIC_API_KEY` or `ANTHROPIC_BASE_URL` picks `AnthropicChatModel` (with
 * `ANTHROPIC_MODEL`, default `claude-sonnet-4-6`); otherwise `OPENAI_API_KEY` or
 * `OPENAI_BASE_URL` picks `OpenAIChatModel` (with `OPENAI_MODEL`, default `gpt-4o-mini`).
 */
export function chooseModel(
  script: () => ScriptedReply[],
  env: NodeJS.ProcessEnv = process.env,
): ModelChoice {
  if (anthropicConfigured(env)) {
    const name = env['ANTHROPIC_MODEL'] ?? 'claude-sonnet-4-6';
    const apiKey = env['ANTHROPIC_API_KEY'];
    const baseURL = env['ANTHROPIC_BASE_URL'];
    return {
      model: new AnthropicChatModel({
        model: name,
        ...(apiKey && { apiKey }),
        ...(baseURL && { baseURL }),
      }),
      mode: 'live',
      banner: `mode: live — model ${name} at ${baseURL ?? 'https://api.anthropic.com'}`,
    };
  }
  if (liveModelConfigured(env)) {
    const name = env['OPENAI_MODEL'] ?? 'gpt-4o-mini';
    const where = env['OPENAI_BASE_URL'] ?? 'https://api.openai.com/v1';
    // Read from `env`, not process.env, so a caller (or a test) can point one run elsewhere.
    const apiKey = env['OPENAI_API_KEY'];
    const baseURL = env['OPENAI_BASE_URL'];
    return {
      model: new OpenAIChatModel({
        model: name,
        ...(apiKey && { apiKey }),
        ...(baseURL && { baseURL }),
      }),
      mode: 'live',
      banner: `mode: live — model ${name} at ${where}`,
    };
  }
  return {
    model: new ScriptedChatModel(script(), { modelName: 'scripted' }),
    mode: 'offline',
    banner:
      'mode: offline — a scripted model plays the scenario (set ANTHROPIC_API_KEY, OPENAI_API_KEY or OPENAI_BASE_URL to use a real model)',
  };
}
