import {
  type CallContext,
  InMemoryMemory,
  type NeedsApproval,
  Toolkit,
  type ToolUseBlock,
  tool,
} from '@rxagent/core';
import { firstValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { approvalRequired, NO_DECISION, resolveDecisions } from './approval.js';
import { ReActCallState } from './reactCallState.js';
import { Transcript } from './transcript.js';

const agent = { name: 'tester' };

function stateWith(toolkit: Toolkit): ReActCallState {
  const context = { agent, options: {} } as unknown as CallContext;
  return new ReActCallState(context, toolkit, new Transcript(new InMemoryMemory(), 'tester'));
}

function guarded(name: string, needsApproval: NeedsApproval<{ n: number }>) {
  return tool({
    name,
    description: name,
    parameters: z.object({ n: z.number() }),
    needsApproval,
    execute: () => 'ok',
  });
}

const call = (id: string, name: string, input: unknown = { n: 1 }): ToolUseBlock => ({
  type: 'tool_use',
  id,
  name,
  input: input as ToolUseBlock['input'],
});

describe('approvalRequired', () => {
  it('lists the calls whose tool needs approval, in call order, synchronously for booleans', () => {
    const state = stateWith(new Toolkit([guarded('a', true), guarded('b', false)]));
    let ids: string[] | undefined;
    approvalRequired(state, [call('1', 'b'), call('2', 'a'), call('3', 'a')], {}).subscribe(
      (found) => {
        ids = found;
      },
    );
    expect(ids).toEqual(['2', '3']);
  });

  it('asks a predicate with validated arguments; a throw or a rejection means approval', async () => {
    const seen: unknown[] = [];
    const state = stateWith(
      new Toolkit([
        guarded('big', (args, context) => {
          seen.push([args, context.toolCallId, context.agent === agent]);
          return Promise.resolve(args.n > 10);
        }),
        guarded('throws', () => {
          throw new Error('down');
        }),
        guarded('rejects', () => Promise.reject(new Error('down'))),
      ]),
    );
    const ids = await firstValueFrom(
      approvalRequired(
        state,
        [
          call('1', 'big', { n: 5 }),
          call('2', 'big', { n: 50 }),
          call('3', 'throws'),
          call('4', 'rejects'),
        ],
        {},
      ),
    );
    expect(ids).toEqual(['2', '3', '4']);
    expect(seen).toEqual([
      [{ n: 5 }, '1', true],
      [{ n: 50 }, '2', true],
    ]);
  });

  it('needs none for unknown or disabled tools, invalid arguments or raw argument text', async () => {
    const toolkit = new Toolkit([guarded('p', () => true), guarded('off', true)]);
    toolkit.setEnabled('off', false);
    const state = stateWith(toolkit);
    const ids = await firstValueFrom(
      approvalRequired(
        state,
        [call('1', 'nope'), call('2', 'off'), call('3', 'p', { n: 'x' }), call('4', 'p', {})],
        { '4': '{"n": 1' },
      ),
    );
    expect(ids).toEqual([]);
  });
});

describe('resolveDecisions', () => {
  it('denies the denied calls with their reason and undecided calls that need approval', async () => {
    const state = stateWith(new Toolkit([guarded('a', true), guarded('b', false)]));
    const at = '2026-01-01T00:00:00.000Z';
    const resolved = await firstValueFrom(
      resolveDecisions(
        state,
        [call('1', 'a'), call('2', 'a'), call('3', 'a'), call('4', 'b'), call('5', 'a')],
        {},
        {
          approve: ['1'],
          deny: { '2': 'too much' },
          edit: { '5': { n: 9 } },
          remember: [],
          by: 'ana',
          at,
        },
      ),
    );
    expect(resolved).toEqual({
      '1': { decision: { decision: 'approved', by: 'ana', at } },
      '2': {
        deny: 'too much',
        decision: { decision: 'denied', by: 'ana', at, reason: 'too much' },
      },
      '3': {
        deny: NO_DECISION,
        decision: { decision: 'denied', by: 'ana', at, reason: NO_DECISION },
      },
      '5': { input: { n: 9 }, decision: { decision: 'edited', by: 'ana', at } },
    });
  });
});
