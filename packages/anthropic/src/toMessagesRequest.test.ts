import type { ChatRequest } from '@rxagent/core';
import { describe, expect, it } from 'vitest';
import { type MessagesRequestSettings, toMessagesRequest } from './toMessagesRequest.js';

const settings: MessagesRequestSettings = { model: 'claude-test', maxTokens: 1000, cache: false };
const tools = [
  {
    type: 'function' as const,
    function: { name: 'f', description: 'F.', parameters: { type: 'object', properties: {} } },
  },
];

describe('toMessagesRequest', () => {
  it('merges consecutive turns of one role, results first, and drops empty text', () => {
    const request: ChatRequest = {
      messages: [
        { role: 'system', content: 'Sys.' },
        { role: 'user', content: 'q' },
        {
          role: 'assistant',
          content: '',
          tool_calls: [
            { id: 't1', type: 'function', function: { name: 'f', arguments: '{"a":1}' } },
            { id: 't2', type: 'function', function: { name: 'f', arguments: 'not json' } },
          ],
        },
        { role: 'tool', tool_call_id: 't1', content: 'one' },
        { role: 'tool', tool_call_id: 't2', content: 'two' },
        { role: 'user', content: 'Keep going.', name: 'system' },
      ],
    };
    const body = toMessagesRequest(request, settings);
    expect(body.system).toEqual([{ type: 'text', text: 'Sys.' }]);
    expect(body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'q' }] },
      {
        role: 'assistant',
        content: [
          { type: 'tool_use', id: 't1', name: 'f', input: { a: 1 } },
          { type: 'tool_use', id: 't2', name: 'f', input: {} },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 't1', content: 'one' },
          { type: 'tool_result', tool_use_id: 't2', content: 'two' },
          { type: 'text', text: 'Keep going.' },
        ],
      },
    ]);
  });

  it('names another speaker in the text, maps images and turns a later system message into a user note', () => {
    const body = toMessagesRequest(
      {
        messages: [
          { role: 'user', content: 'hello', name: 'bob' },
          { role: 'system', content: 'Be kind.' },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'see' },
              { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
              { type: 'image_url', image_url: { url: 'https://example.com/a.png' } },
            ],
          },
        ],
      },
      settings,
    );
    expect(body.system).toBeUndefined();
    expect(body.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'bob: hello' },
          { type: 'text', text: '[system] Be kind.' },
          { type: 'text', text: 'see' },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } },
          { type: 'image', source: { type: 'url', url: 'https://example.com/a.png' } },
        ],
      },
    ]);
  });

  it('sends a forced tool choice as auto while thinking, and none as none', () => {
    const thinking = { ...settings, thinking: { type: 'enabled' as const, budget_tokens: 1024 } };
    const messages: ChatRequest['messages'] = [{ role: 'user', content: 'q' }];
    expect(
      toMessagesRequest({ messages, tools, toolChoice: 'required' }, thinking).tool_choice,
    ).toEqual({
      type: 'auto',
    });
    expect(
      toMessagesRequest({ messages, tools, toolChoice: 'none' }, thinking).tool_choice,
    ).toEqual({
      type: 'none',
    });
    expect(toMessagesRequest({ messages, tools }, settings).tool_choice).toBeUndefined();
    expect(
      toMessagesRequest({ messages, toolChoice: 'required' }, settings).tool_choice,
    ).toBeUndefined();
  });

  it('lets the request options win over the model settings and extras, and keeps the fields it owns', () => {
    const body = toMessagesRequest(
      {
        messages: [{ role: 'user', content: 'q' }],
        options: {
          maxTokens: 50,
          temperature: 0.2,
          topP: 0.9,
          stop: ['END'],
          extra: { top_k: 5, model: 'x' },
        },
      },
      { ...settings, temperature: 1, extraBody: { metadata: { user_id: 'u' } } },
    );
    expect(body).toMatchObject({
      model: 'claude-test',
      max_tokens: 50,
      temperature: 0.2,
      top_p: 0.9,
      stop_sequences: ['END'],
      top_k: 5,
      metadata: { user_id: 'u' },
      stream: true,
    });
  });

  it('ends a conversation that ends with the assistant with a user turn, and rejects one with nothing to send', () => {
    const body = toMessagesRequest(
      {
        messages: [
          { role: 'user', content: 'q' },
          { role: 'assistant', content: 'a' },
        ],
      },
      settings,
    );
    expect(body.messages.at(-1)).toEqual({
      role: 'user',
      content: [{ type: 'text', text: 'Continue.' }],
    });
    expect(() =>
      toMessagesRequest({ messages: [{ role: 'system', content: 's' }] }, settings),
    ).toThrow(/no user or assistant message/);
  });

  it('puts cache_control on the last system block and the last tool only when caching', () => {
    const body = toMessagesRequest(
      {
        messages: [
          { role: 'system', content: 'S' },
          { role: 'user', content: 'q' },
        ],
        tools: [...tools, ...tools.map((t) => ({ ...t, function: { ...t.function, name: 'g' } }))],
      },
      { ...settings, cache: true },
    );
    expect(body.system).toEqual([
      { type: 'text', text: 'S', cache_control: { type: 'ephemeral' } },
    ]);
    expect(body.tools?.map((tool) => 'cache_control' in tool)).toEqual([false, true]);
  });
});
