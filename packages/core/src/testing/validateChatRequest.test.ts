import { describe, expect, it } from 'vitest';
import { validateChatRequest } from './validateChatRequest.js';

type Body = Record<string, unknown> & { messages: Array<Record<string, unknown>> };

const call = (id: string, name = 'get_weather', args = '{"city":"Paris"}') => ({
  id,
  type: 'function',
  function: { name, arguments: args },
});

const tool = (name: string) => ({
  type: 'function',
  function: {
    name,
    description: `Calls ${name}.`,
    parameters: { type: 'object', properties: { city: { type: 'string' } } },
  },
});

/** A valid multi-tool conversation: two parallel calls, a second round, a final answer. */
function validBody(): Body {
  return {
    model: 'gpt-test',
    messages: [
      { role: 'system', content: 'You are helpful.' },
      { role: 'user', content: 'Weather and time in Paris?', name: 'alice' },
      {
        role: 'assistant',
        content: '',
        tool_calls: [call('call_1'), call('call_2', 'get_time', '{}')],
      },
      { role: 'tool', tool_call_id: 'call_1', content: 'Sunny' },
      { role: 'tool', tool_call_id: 'call_2', content: '12:00' },
      { role: 'assistant', content: null, tool_calls: [call('call_3')] },
      { role: 'tool', tool_call_id: 'call_3', content: [{ type: 'text', text: 'Still sunny' }] },
      { role: 'assistant', content: 'It is sunny at noon.', name: 'weather-bot' },
      { role: 'user', content: 'Check every point.', name: 'system' },
    ],
    tools: [tool('get_weather'), tool('get_time')],
    tool_choice: { type: 'function', function: { name: 'get_time' } },
    parallel_tool_calls: true,
    stream: true,
    stream_options: { include_usage: true },
    temperature: 0.2,
  };
}

function withMessages(...messages: Array<Record<string, unknown>>): Body {
  return { model: 'gpt-test', messages };
}

const user = { role: 'user', content: 'Hi' };

describe('validateChatRequest', () => {
  it('accepts a string prompt_cache_key and rejects any other', () => {
    expect(validateChatRequest({ ...validBody(), prompt_cache_key: 'session-1' })).toBeUndefined();
    expect(validateChatRequest({ ...validBody(), prompt_cache_key: 42 })).toMatch(
      /prompt_cache_key: expected a string/u,
    );
  });

  it('accepts a valid multi-tool conversation', () => {
    expect(validateChatRequest(validBody())).toBeUndefined();
  });

  it('accepts developer messages, multi-part user content and a plain request without tools', () => {
    const body = withMessages(
      { role: 'developer', content: [{ type: 'text', text: 'Be brief.' }] },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is this?' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
        ],
      },
    );
    expect(validateChatRequest(body)).toBeUndefined();
  });

  const cases: Array<[string, (body: Body) => unknown, string]> = [
    ['a body that is not an object', () => [], 'body: expected a JSON object, got an array'],
    [
      'a missing model',
      (b) => ({ ...b, model: undefined }),
      "model: missing required parameter 'model'",
    ],
    [
      'missing messages',
      (b) => ({ ...b, messages: undefined }),
      "messages: missing required parameter 'messages'",
    ],
    ['empty messages', (b) => ({ ...b, messages: [] }), 'messages: empty array'],
    [
      'messages that are not an array',
      (b) => ({ ...b, messages: 'hi' }),
      'messages: expected an array, got a string',
    ],
    [
      'an unknown role',
      (b) => withMessages(b.messages[0]!, { role: 'bot', content: 'x' }),
      'messages[1].role: unknown role "bot"',
    ],
    [
      'a tool message after a user message',
      () => withMessages(user, { role: 'tool', tool_call_id: 'call_1', content: 'x' }),
      'messages[1]: tool message (tool_call_id call_1) does not follow an assistant message with tool_calls',
    ],
    [
      'a tool message answering an id the assistant did not call',
      (b) => {
        b.messages[4] = { role: 'tool', tool_call_id: 'call_9', content: 'x' };
        return b;
      },
      'messages[4]: tool_call_id call_9 answers no tool call of the assistant message at messages[2] (its calls: [call_1, call_2])',
    ],
    [
      'a tool result answering an earlier run',
      (b) => {
        b.messages[6] = { role: 'tool', tool_call_id: 'call_1', content: 'x' };
        return b;
      },
      'messages[6]: tool_call_id call_1 answers no tool call of the assistant message at messages[5]',
    ],
    [
      'a second result for the same call',
      (b) => {
        b.messages[4] = { role: 'tool', tool_call_id: 'call_1', content: 'x' };
        return b;
      },
      'messages[4]: second tool result for tool_call_id call_1',
    ],
    [
      'tool results interrupted by a user message',
      (b) => {
        b.messages.splice(4, 0, { ...user });
        return b;
      },
      'messages[2]: assistant tool_calls [call_2] have no tool results (each call needs a tool message with its tool_call_id before messages[4])',
    ],
    [
      'tool calls without results at the end',
      () => withMessages(user, { role: 'assistant', content: '', tool_calls: [call('call_1')] }),
      'messages[1]: assistant tool_calls [call_1] have no tool results (each call needs a tool message with its tool_call_id before the end of the messages)',
    ],
    [
      'tool call arguments that are not valid JSON',
      (b) => {
        b.messages[5] = {
          role: 'assistant',
          content: null,
          tool_calls: [call('call_3', 'get_weather', '{"city":')],
        };
        return b;
      },
      'messages[5].tool_calls[0].function.arguments: not valid JSON',
    ],
    [
      'arguments sent as an object instead of a JSON string',
      (b) => {
        b.messages[5] = {
          role: 'assistant',
          tool_calls: [{ id: 'call_3', type: 'function', function: { name: 'f', arguments: {} } }],
        };
        return b;
      },
      'messages[5].tool_calls[0].function.arguments: expected a JSON string, got an object',
    ],
    [
      'duplicate tool call ids in one message',
      () =>
        withMessages(user, {
          role: 'assistant',
          content: '',
          tool_calls: [call('call_1'), call('call_1')],
        }),
      'messages[1].tool_calls[1].id: duplicate tool_call id call_1 (already used at messages[1].tool_calls[0])',
    ],
    [
      'a tool call id reused by a later message',
      (b) => {
        b.messages[5] = { role: 'assistant', content: '', tool_calls: [call('call_1')] };
        b.messages[6] = { role: 'tool', tool_call_id: 'call_1', content: 'x' };
        return b;
      },
      'messages[5].tool_calls[0].id: duplicate tool_call id call_1 (already used at messages[2].tool_calls[0])',
    ],
    [
      'an empty tool_calls array',
      () => withMessages(user, { role: 'assistant', content: 'x', tool_calls: [] }),
      'messages[1].tool_calls: empty array',
    ],
    [
      'an assistant message without content or tool_calls',
      () => withMessages(user, { role: 'assistant', content: null }),
      'messages[1]: assistant message has neither content nor tool_calls',
    ],
    [
      'a tool message without tool_call_id',
      () => withMessages(user, { role: 'tool', content: 'x' }),
      'messages[1].tool_call_id: a tool message needs the tool_call_id',
    ],
    [
      'a user message without content',
      () => withMessages({ role: 'user' }),
      'messages[0].content: missing content',
    ],
    [
      'a message name with a space',
      () => withMessages({ ...user, name: 'Alice Smith' }),
      'messages[0].name: "Alice Smith" does not match',
    ],
    [
      'a message name with a slash',
      () => withMessages({ ...user, name: 'a/b' }),
      'messages[0].name:',
    ],
    [
      'tool_choice naming a function not in tools',
      (b) => ({ ...b, tool_choice: { type: 'function', function: { name: 'get_news' } } }),
      'tool_choice: function "get_news" is not in tools [get_weather, get_time]',
    ],
    [
      'a malformed tool_choice',
      (b) => ({ ...b, tool_choice: 'always' }),
      "tool_choice: expected 'auto', 'none', 'required' or { type: 'function', function: { name } }",
    ],
    [
      'tool_choice without tools',
      (b) => ({ ...b, tools: undefined }),
      "tool_choice: 'tool_choice' is only allowed when 'tools' are specified (there are no tools)",
    ],
    [
      'tool_choice with an empty tools array',
      (b) => ({ ...b, tools: [] }),
      "tool_choice: 'tool_choice' is only allowed when 'tools' are specified (tools is an empty array)",
    ],
    [
      'parallel_tool_calls without tools',
      (b) => ({ ...b, tools: undefined, tool_choice: undefined }),
      "parallel_tool_calls: 'parallel_tool_calls' is only allowed when 'tools' are specified",
    ],
    [
      'an empty tools array alone',
      (b) => ({ ...b, tools: [], tool_choice: undefined, parallel_tool_calls: undefined }),
      'tools: empty array; omit tools when there are none',
    ],
    [
      'a tool schema without function.name',
      (b) => ({
        ...b,
        tools: [{ type: 'function', function: { description: 'x' } }],
        tool_choice: 'auto',
      }),
      'tools[0].function.name: missing function name',
    ],
    [
      'a tool name with a space',
      (b) => ({ ...b, tools: [tool('get weather')], tool_choice: 'auto' }),
      'tools[0].function.name: "get weather" does not match ^[a-zA-Z0-9_-]{1,64}$',
    ],
    [
      'a tool name longer than 64 characters',
      (b) => ({ ...b, tools: [tool('get_time'), tool('x'.repeat(65))] }),
      'tools[1].function.name:',
    ],
    [
      'stream_options without streaming',
      (b) => ({ ...b, stream: false }),
      "stream_options: only allowed when 'stream' is true",
    ],
    [
      'a temperature out of range',
      (b) => ({ ...b, temperature: 3 }),
      'temperature: expected a number from 0 to 2, got 3',
    ],
  ];

  it.each(cases)('rejects %s, naming what and where', (_, mutate, reason) => {
    const problem = validateChatRequest(mutate(validBody()));
    expect(problem).toContain(reason);
  });
});
