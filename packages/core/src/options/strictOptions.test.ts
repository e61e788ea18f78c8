import { firstValueFrom, isObservable, type Observable } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { compressContext } from '../context/compressContext.js';
import { planCompression } from '../context/planCompression.js';
import { redactSecrets } from '../hooks/redactSecrets.js';
import { redactSecretsHook } from '../hooks/redactSecretsHook.js';
import { MsgHub, msgHub } from '../hub/msgHub.js';
import { createMsg, userMsg } from '../message/msg.js';
import { toolDecisions } from '../message/toolDecisions.js';
import { formatMessages } from '../model/formatMessages.js';
import { fanoutPipeline } from '../pipeline/fanoutPipeline.js';
import { handoffPipeline } from '../pipeline/handoffPipeline.js';
import { ScriptedChatModel } from '../testing/scriptedChatModel.js';
import { startStrictOpenAIServer } from '../testing/strictOpenAIServer.js';
import { DelayedAgent, EchoAgent, FailingAgent, ManualAgent } from '../testing/testAgents.js';
import { tool } from '../tool/tool.js';
import { Toolkit } from '../tool/toolkit.js';
import { checkOptions, optionNames } from './checkOptions.js';

const echo = new EchoAgent({ name: 'echo' });
const base = {
  name: 'lookup',
  description: 'Looks a thing up.',
  parameters: z.object({ q: z.string() }),
  execute: () => 'ok',
};

/** Runs `make`, awaiting a Promise or the first value of an Observable, and returns what failed. */
async function failure(make: () => unknown): Promise<unknown> {
  try {
    const made = make();
    if (isObservable(made)) await firstValueFrom(made as Observable<unknown>);
    else await made;
  } catch (error) {
    return error;
  }
  return undefined;
}

/** [options object, how to pass a misspelt key, the message expected]. */
const cases: Array<[string, () => unknown, RegExp]> = [
  [
    'EchoAgent',
    () => new EchoAgent({ name: 'a', prefx: '>' } as never),
    /EchoAgent: unknown option "prefx" \(did you mean "prefix"\?\)/,
  ],
  [
    'FailingAgent',
    () => new FailingAgent({ name: 'a', eror: 1 } as never),
    /FailingAgent: unknown option "eror" \(did you mean "error"\?\)/,
  ],
  [
    'DelayedAgent',
    () => new DelayedAgent({ name: 'a', delayMS: 1 } as never),
    /DelayedAgent: unknown option "delayMS" \(did you mean "delayMs"\?\)/,
  ],
  [
    'ManualAgent',
    () => new ManualAgent({ name: 'a', hook: [] } as never),
    /ManualAgent: unknown option "hook" \(did you mean "hooks"\?\)/,
  ],
  [
    'call() options',
    () => echo.call('hi', { maxIterations: 2 } as never),
    /echo\.call\(\): unknown option "maxIterations" \(did you mean "maxIters"\?\)/,
  ],
  [
    'call() options (structured output)',
    () => echo.call('hi', { schema: {} } as never),
    /did you mean "structuredOutput"/,
  ],
  [
    'asTool()',
    () => echo.asTool({ descripton: 'x' } as never),
    /echo\.asTool\(\): unknown option "descripton" \(did you mean "description"\?\)/,
  ],
  [
    'MsgHub',
    () => new MsgHub({ agents: [echo] } as never),
    /MsgHub: unknown option "agents" \(did you mean "participants"\?\)/,
  ],
  [
    'msgHub()',
    () => msgHub({ participants: [echo], announce: userMsg('hi') } as never, () => []),
    /did you mean "announcement"/,
  ],
  [
    'fanoutPipeline()',
    () => fanoutPipeline([echo], userMsg('hi'), { parallel: true } as never),
    /fanoutPipeline\(\): unknown option "parallel" \(did you mean "concurrent"\?\)/,
  ],
  [
    'handoffPipeline()',
    () => handoffPipeline([echo], userMsg('hi'), { maxHops: 2 } as never),
    /did you mean "maxHandoffs"/,
  ],
  [
    'Toolkit',
    () => new Toolkit([], { timeout: 5 } as never),
    /Toolkit: unknown option "timeout" \(did you mean "timeoutMs"\?\)/,
  ],
  [
    'tool()',
    () => tool({ ...base, requireApproval: true } as never),
    /tool\("lookup"\): unknown option "requireApproval" \(did you mean "needsApproval"\?\)/,
  ],
  [
    'tool() handler',
    () => tool({ ...base, execute: undefined, handler: () => 'x' } as never),
    /unknown option "handler" \(did you mean "execute"\?\)/,
  ],
  [
    'userMsg()',
    () => userMsg('x', { role: 'system' } as never),
    /userMsg\(\): unknown option "role"/,
  ],
  [
    'createMsg()',
    () => createMsg({ name: 'a', role: 'user', content: 'x', metadta: {} } as never),
    /createMsg\(\): unknown option "metadta" \(did you mean "metadata"\?\)/,
  ],
  ['toolDecisions()', () => toolDecisions({ approved: ['c1'] } as never), /did you mean "approve"/],
  [
    'redactSecretsHook()',
    () => redactSecretsHook({ envVar: ['X'] } as never),
    /did you mean "envVars"/,
  ],
  [
    'redactSecrets()',
    () => redactSecrets('text', { secret: [] } as never),
    /did you mean "secrets"/,
  ],
  [
    'formatMessages()',
    () => formatMessages([], { system: 'x' } as never),
    /did you mean "systemPrompt"/,
  ],
  [
    'planCompression()',
    () => planCompression([], { keep: 2 } as never),
    /did you mean "keepRecent"/,
  ],
  [
    'compressContext()',
    () =>
      compressContext({
        agent: echo,
        messages: [],
        systemPrompt: '',
        tools: [],
        maxTokens: 10,
        maxContextTokens: 10,
      } as never),
    /compressContext\(\): unknown option "maxContextTokens" \(did you mean "maxTokens"\?\)/,
  ],
  [
    'ScriptedChatModel',
    () => new ScriptedChatModel([], { strct: true } as never),
    /did you mean "strict"/,
  ],
  [
    'startStrictOpenAIServer()',
    () => startStrictOpenAIServer({ scripts: [] } as never),
    /did you mean "script"/,
  ],
];

describe('options objects of core reject unknown keys', () => {
  it.each(cases)('%s', async (_, make, message) => {
    const error = await failure(make);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toMatch(message);
  });

  it('reports a bad call() option through the Observable, never synchronously', async () => {
    const call = echo.call('hi', { maxIterations: 2 } as never);
    await expect(firstValueFrom(call)).rejects.toThrow(TypeError);
    expect(echo.calls.length).toBe(0);
  });

  it('accepts every known key', async () => {
    expect(
      () => new EchoAgent({ name: 'b', prefix: '>', description: 'd', hooks: [], id: 'x' }),
    ).not.toThrow();
    expect(() =>
      tool({ ...base, dedupe: false, timeoutMs: 5, maxResultChars: 10, needsApproval: false }),
    ).not.toThrow();
    await expect(firstValueFrom(echo.call('hi', { maxIters: 2 }))).resolves.toBeDefined();
  });
});

describe('optionNames', () => {
  it('lists the keys it is given, frozen', () => {
    const keys = optionNames<{ a?: number; b: string }>({ a: true, b: true });
    expect(keys).toEqual(['a', 'b']);
    expect(Object.isFrozen(keys)).toBe(true);
    expect(() => checkOptions({ c: 1 }, keys, 'X')).toThrow(/unknown option "c"/);
  });
});
