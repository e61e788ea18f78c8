import { lastValueFrom, of } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { AgentBase } from '../agent/agentBase.js';
import type { ToolResultBlock } from '../message/contentBlock.js';
import { EchoAgent } from '../testing/testAgents.js';
import type { PostActingEvent } from './hookEvent.js';
import { HookRegistry } from './hookRegistry.js';
import { redactSecretsHook } from './redactSecretsHook.js';
import { runHooks } from './runHooks.js';

const agent: AgentBase = new EchoAgent({ name: 'bot' });

function postActing(output: ToolResultBlock['output']): PostActingEvent {
  return {
    type: 'postActing',
    agent,
    toolCall: { type: 'tool_use', id: 'c1', name: 'read_env', input: {} },
    result: { type: 'tool_result', id: 'c1', name: 'read_env', output },
    stopAgent() {},
    stopRequested: false,
  };
}

describe('redactSecretsHook', () => {
  it('redacts the result and adds the count to the event metadata the agent stores', () => {
    const hook = redactSecretsHook();
    const event = postActing('key=sk-proj-abcdefghijklmnopqrstuv token=AKIAIOSFODNN7EXAMPLE');
    event.metadata = { source: 'test', redactions: 1 };
    const out = hook.onEvent(event) as PostActingEvent;
    expect(out.result).toEqual({
      type: 'tool_result',
      id: 'c1',
      name: 'read_env',
      output: 'key=[REDACTED:api-key] token=[REDACTED:api-key]',
    });
    expect(out.metadata).toEqual({ source: 'test', redactions: 3 });
  });

  it('leaves a clean result and its metadata untouched', () => {
    const event = postActing('nothing secret here');
    expect(redactSecretsHook().onEvent(event)).toBeUndefined();
    expect(event.metadata).toBeUndefined();
    expect(event.result.output).toBe('nothing secret here');
  });

  it('redacts configured environment values, text parts of block outputs, and reports each result', () => {
    const reports: Array<[string, number]> = [];
    const hook = redactSecretsHook({
      envVars: ['DATABASE_URL', 'MISSING'],
      env: { DATABASE_URL: 'postgres://admin:s3cret@db:5432/app' },
      onRedact: (tool, count) => reports.push([tool, count]),
    });
    const image = { type: 'image', url: 'data:image/png;base64,AAAA' } as const;
    const event = postActing([
      { type: 'text', text: 'url postgres://admin:s3cret@db:5432/app' },
      image,
    ]);
    const out = hook.onEvent(event) as PostActingEvent;
    expect(out.result.output).toEqual([
      { type: 'text', text: 'url [REDACTED:DATABASE_URL]' },
      image,
    ]);
    expect(out.metadata).toEqual({ redactions: 1 });
    expect(reports).toEqual([['read_env', 1]]);
  });

  it('ignores other events', () => {
    const hook = redactSecretsHook();
    expect(hook.onEvent({ type: 'postCall', agent, reply: {} as never })).toBeUndefined();
  });

  it('runs before default-priority hooks, so they see the clean result', async () => {
    const seen: string[] = [];
    const event = postActing('sk-proj-abcdefghijklmnopqrstuv');
    const registry = new HookRegistry();
    registry.add({
      onEvent: (e) => {
        if (e.type === 'postActing') seen.push(e.result.output as string);
        return of(undefined);
      },
    });
    registry.add(redactSecretsHook());
    await lastValueFrom(runHooks(registry.merged(new HookRegistry()), event));
    expect(seen).toEqual(['[REDACTED:api-key]']);
  });
});
