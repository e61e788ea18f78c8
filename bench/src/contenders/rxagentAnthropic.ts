import { AnthropicChatModel } from '@rxagent/anthropic';
import { userMsg } from '@rxagent/core';
import { ReActAgent } from '@rxagent/react-agent';
import { lastValueFrom } from 'rxjs';
import { SYSTEM_PROMPT } from '../scenario/conversation.js';
import { benchToolkit } from '../scenario/tools.js';
import type { Contender } from './contender.js';

/**
 * rxagent on the Messages API: a fresh `ReActAgent` per conversation sharing one
 * `AnthropicChatModel` (one SDK client on its default transport) and one toolkit.
 */
export function rxagentAnthropic(baseURL: string, label = 'rxagent (Anthropic)'): Contender {
  const model = new AnthropicChatModel({
    model: 'bench-model',
    baseURL,
    apiKey: 'bench-key',
    maxTokens: 1024,
  });
  const toolkit = benchToolkit();
  return {
    label,
    async run(prompt, signal) {
      const agent = new ReActAgent({ name: 'assistant', sysPrompt: SYSTEM_PROMPT, model, toolkit });
      const reply = await lastValueFrom(agent.call(userMsg(prompt), signal ? { signal } : {}));
      const block = reply.content[0];
      return block?.type === 'text' ? block.text : '';
    },
  };
}
