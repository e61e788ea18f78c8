import type { ChatRequest } from '@rxagent/core';
import { describe, expect, it } from 'vitest';
import { type ChatRequestSettings, defaultMaxTokensField, toChatRequest } from './toChatRequest.js';

const settings: ChatRequestSettings = {
  model: 'gpt-x',
  stream: true,
  maxTokensField: 'max_tokens',
};
const messages: ChatRequest['messages'] = [{ role: 'user', content: 'hi' }];
const weather = {
  type: 'function' as const,
  function: { name: 'weather', description: 'Weather', parameters: { type: 'object' } },
};

describe('toChatRequest', () => {
  it('sends model, messages and stream options when streaming', () => {
    expect(toChatRequest({ messages }, settings)).toEqual({
      model: 'gpt-x',
      messages,
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it('omits stream_options when not streaming', () => {
    expect(toChatRequest({ messages }, { ...settings, stream: false })).toEqual({
      model: 'gpt-x',
      messages,
      stream: false,
    });
  });

  it('sends tools, tool_choice and parallel_tool_calls together', () => {
    const params = toChatRequest(
      { messages, tools: [weather], toolChoice: { name: 'weather' }, parallelToolCalls: false },
      settings,
    );
    expect(params).toMatchObject({
      tools: [weather],
      tool_choice: { type: 'function', function: { name: 'weather' } },
      parallel_tool_calls: false,
    });
  });

  it('omits tools, tool_choice and parallel_tool_calls when there are no tools', () => {
    const params = toChatRequest(
      { messages, tools: [], toolChoice: 'required', parallelToolCalls: true },
      settings,
    );
    expect(params).not.toHaveProperty('tools');
    expect(params).not.toHaveProperty('tool_choice');
    expect(params).not.toHaveProperty('parallel_tool_calls');
  });

  it('omits parallel_tool_calls when it is undefined', () => {
    const params = toChatRequest({ messages, tools: [weather], toolChoice: 'auto' }, settings);
    expect(params).toMatchObject({ tool_choice: 'auto' });
    expect(params).not.toHaveProperty('parallel_tool_calls');
  });

  it('maps request options, which win over model defaults and extras', () => {
    const params = toChatRequest(
      {
        messages,
        options: {
          temperature: 0.1,
          topP: 0.9,
          maxTokens: 50,
          seed: 7,
          stop: ['END'],
          extra: { top_k: 20, temperature: 0.5 },
        },
      },
      {
        ...settings,
        maxTokensField: 'max_completion_tokens',
        temperature: 1,
        maxTokens: 999,
        extraBody: { top_k: 5, repetition_penalty: 1.1 },
      },
    );
    expect(params).toMatchObject({
      temperature: 0.1,
      top_p: 0.9,
      max_completion_tokens: 50,
      seed: 7,
      stop: ['END'],
      top_k: 20,
      repetition_penalty: 1.1,
    });
    expect(params).not.toHaveProperty('max_tokens');
  });

  it('applies model defaults when the request sets none', () => {
    const params = toChatRequest({ messages }, { ...settings, temperature: 0.3, maxTokens: 100 });
    expect(params).toMatchObject({ temperature: 0.3, max_tokens: 100 });
  });

  it('never lets extras override the fields the adapter owns', () => {
    const params = toChatRequest(
      { messages, options: { extra: { model: 'other', stream: false, messages: [] } } },
      { ...settings, extraBody: { stream_options: { include_usage: false } } },
    );
    expect(params).toMatchObject({
      model: 'gpt-x',
      stream: true,
      messages,
      stream_options: { include_usage: true },
    });
  });

  it('keeps the caller messages array by reference (no copy)', () => {
    expect(toChatRequest({ messages }, settings).messages).toBe(messages);
  });
});

describe('defaultMaxTokensField', () => {
  it('uses max_completion_tokens for OpenAI and Azure, max_tokens elsewhere', () => {
    expect(defaultMaxTokensField(undefined)).toBe('max_completion_tokens');
    expect(defaultMaxTokensField('https://api.openai.com/v1')).toBe('max_completion_tokens');
    expect(defaultMaxTokensField('https://me.openai.azure.com/openai')).toBe(
      'max_completion_tokens',
    );
    expect(defaultMaxTokensField('http://localhost:11434/v1')).toBe('max_tokens');
    expect(defaultMaxTokensField('not a url')).toBe('max_tokens');
  });
});

describe('toChatRequest and signed thinking', () => {
  it('drops the `thinking` of assistant messages, which is not a Chat Completions field', () => {
    const request: ChatRequest = {
      messages: [
        { role: 'user', content: 'q' },
        {
          role: 'assistant',
          content: 'a',
          thinking: [{ type: 'thinking', thinking: 't', signature: 's' }],
        },
      ],
    };
    const body = toChatRequest(request, {
      model: 'm',
      stream: true,
      maxTokensField: 'max_tokens',
    });
    expect(body.messages).toEqual([
      { role: 'user', content: 'q' },
      { role: 'assistant', content: 'a' },
    ]);
    expect(request.messages[1]).toHaveProperty('thinking');
  });

  it('sends the same messages array when no message has thinking', () => {
    const request: ChatRequest = { messages: [{ role: 'user', content: 'q' }] };
    const body = toChatRequest(request, { model: 'm', stream: true, maxTokensField: 'max_tokens' });
    expect(body.messages).toBe(request.messages);
  });
});
