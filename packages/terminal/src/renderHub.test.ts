import { fanoutPipeline, msgHub, sequentialPipeline, Toolkit, tool, userMsg } from '@rxagent/core';
import { FailingAgent, ScriptedChatModel } from '@rxagent/core/testing';
import { ReActAgent } from '@rxagent/react-agent';
import { lastValueFrom, Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { capture, steppingClock } from '../test/outputs.js';
import { renderHub } from './renderHub.js';

const double = tool({
  name: 'double',
  description: 'Doubles a number.',
  parameters: z.object({ n: z.number() }),
  execute: ({ n }) => String(n * 2),
});

function team() {
  const alice = new ReActAgent({
    name: 'alice',
    sysPrompt: 'Double.',
    model: new ScriptedChatModel([
      { toolCalls: [{ name: 'double', arguments: { n: 21 } }] },
      'It is 42.',
    ]),
    toolkit: new Toolkit([double]),
  });
  const bob = new ReActAgent({
    name: 'bob',
    sysPrompt: 'Agree.',
    model: new ScriptedChatModel(['Agreed.', 'Still agreed.']),
  });
  return { alice, bob };
}

describe('renderHub', () => {
  it('renders each call of a sequential pipeline under a header, in order', async () => {
    const { alice, bob } = team();
    const out = capture();
    renderHub([alice, bob], { out, clock: steppingClock() });
    await lastValueFrom(sequentialPipeline([alice, bob], userMsg('21?')));
    expect(out.text).toMatch(
      /^\[alice\]\n→ double \{"n":21\}\n← double: 42 · 0\.1 s\nalice: It is 42\.\n✓ \d+\.\d s[^\n]*\n\[bob\]\nbob: Agreed\.\n✓ \d+\.\d s[^\n]*\n$/,
    );
  });

  it('renders the participants of a MsgHub and stops when removed', async () => {
    const { alice, bob } = team();
    const out = capture();
    let stop = (): void => {};
    await lastValueFrom(
      msgHub({ participants: [alice, bob] }, (hub) => {
        stop = renderHub(hub, { out, clock: steppingClock() });
        return sequentialPipeline([alice, bob], userMsg('21?'));
      }),
    );
    stop();
    const rendered = out.text;
    expect(rendered).toContain('[alice]');
    expect(rendered).toContain('[bob]');
    await lastValueFrom(bob.call(userMsg('again?')));
    expect(out.text).toBe(rendered);
  });

  it('prints nothing while muted and resumes after', async () => {
    const { alice, bob } = team();
    const out = capture();
    let muted = true;
    renderHub([alice, bob], { out, muted: () => muted });
    await lastValueFrom(fanoutPipeline([alice, bob], userMsg('21?')));
    expect(out.text).toBe('');
    muted = false;
    await lastValueFrom(bob.call(userMsg('again?')));
    expect(out.text).toMatch(/^\[bob\]\nbob: Still agreed\.\n✓ /);
  });

  it('prints a failed call’s error once', async () => {
    const broken = new FailingAgent({ name: 'broken', error: new Error('disk full') });
    const out = capture();
    renderHub([broken], { out, clock: steppingClock() });
    await expect(lastValueFrom(sequentialPipeline([broken], userMsg('go')))).rejects.toThrow(
      'disk full',
    );
    expect(out.text).toBe('[broken]\n✗ error: disk full\n');
  });

  it('returns a remover that takes every hook off', async () => {
    const { alice, bob } = team();
    const out = capture();
    const stop = renderHub([alice, bob], { out });
    stop();
    await lastValueFrom(sequentialPipeline([alice, bob], userMsg('21?')));
    expect(out.text).toBe('');
  });

  it('prints notes on their own line until removed', async () => {
    const { bob } = team();
    const out = capture();
    const notes = new Subject<string>();
    const stop = renderHub([bob], { out, notes, clock: steppingClock() });
    notes.next('round 1');
    await lastValueFrom(bob.stream(userMsg('ok?')));
    stop();
    notes.next('after');
    expect(out.text.startsWith('round 1\n[bob]\n')).toBe(true);
    expect(out.text).not.toContain('after');
    expect(notes.observed).toBe(false);
  });
});
