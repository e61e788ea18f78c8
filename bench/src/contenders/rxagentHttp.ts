import { userMsg } from '@rxagent/core';
import { OpenAIChatModel, ReActAgent } from '@rxagent/react-agent';
import { lastValueFrom } from 'rxjs';
import { SYSTEM_PROMPT } from '../scenario/conversation.js';
import { benchToolkit } from '../scenario/tools.js';
import type { Contender } from './contender.js';

/**
 * rxagent over HTTP: a fresh `ReActAgent` per conversation (one agent per user), sharing one
 * `OpenAIChatModel` (one SDK client on its default transport) and one toolkit, as an
 * application would.
 */
export function rxagentHttp(
  baseURL: string,
  label = 'rxagent',
  fetchImpl?: typeof fetch,
): Contender {
  const model = new OpenAIChatModel({
    model: 'bench-model',
    baseURL,
    apiKey: 'bench-key',
    stream: true,
    ...(fetchImpl && { fetch: fetchImpl }),
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
