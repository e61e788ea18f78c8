import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { JsonFileSession, type Msg, toolResults, toolUses } from '@rxagent/core';
import { ScriptedChatModel } from '@rxagent/core/testing';
import { ReActAgent } from '@rxagent/react-agent';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../src/main.js';
import type { Input } from '../src/userInput.js';

const FULL_SCAN_MS = 12 * 400;
/** What a terminal renderer writes to erase its spinner line. */
const ERASE_LINE = '\r\u001b[2K';
const dirs: string[] = [];

afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function sessionDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'interrupt-resume-'));
  dirs.push(dir);
  return dir;
}

/** Captured output; `when(text, act)` runs `act` once the output first contains `text`. */
function capture() {
  let text = '';
  const waiting: { text: string; act: () => void }[] = [];
  const out = new Writable({
    write(chunk, _encoding, done) {
      text += String(chunk);
      for (const entry of [...waiting]) {
        if (text.includes(entry.text)) {
          waiting.splice(waiting.indexOf(entry), 1);
          entry.act();
        }
      }
      done();
    },
  });
  return {
    out,
    text: () => text,
    when: (wanted: string, act: () => void) => waiting.push({ text: wanted, act }),
  };
}

/** Every tool_use of the conversation has a tool_result, and no result answers nothing. */
function expectValidConversation(messages: readonly Msg[]): void {
  const calls = messages.flatMap(toolUses).map((call) => call.id);
  const results = messages.flatMap(toolResults).map((result) => result.id);
  expect(new Set(calls).size).toBe(calls.length);
  expect([...results].sort()).toEqual([...calls].sort());
}

function at(timeline: readonly { what: string }[], prefix: string): number {
  return timeline.findIndex((entry) => entry.what.startsWith(prefix));
}

describe('interrupt-resume example (offline)', () => {
  it('interrupts the long scan quickly, saves, resumes from the file and publishes after approval (--approve)', async () => {
    const dir = await sessionDir();
    const { out, text } = capture();

    const result = await main({
      out,
      env: {},
      interactive: false,
      sessionDir: dir,
      argv: ['--approve'],
    });

    expect(text().split('\n')[0]).toMatch(/^mode: offline/);
    const cut = result.interrupted!;
    expect(cut.reply.metadata['generateReason']).toBe('interrupted');
    expect(cut.endedAt - cut.toolStartedAt).toBeLessThan(FULL_SCAN_MS / 2);
    expect(cut.endedAt - cut.interruptedAt).toBeLessThan(300);
    expect(cut.monthsScanned).toBeLessThan(12);

    expect((await stat(result.sessionFile)).isFile()).toBe(true);
    const saved = await new JsonFileSession(dir).load('incident-assistant');
    const reloaded = new ReActAgent({
      name: 'assistant',
      sysPrompt: '',
      model: new ScriptedChatModel([]),
    });
    reloaded.loadStateDict(saved!);
    expectValidConversation(reloaded.memory.messages());

    const first = result.resumed!.firstRequest;
    expect(first.map((msg) => msg.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
      'user',
    ]);
    expect(String(toolResults(first[2]!)[0]?.output)).toMatch(/^\[interrupted\]/);
    expect(result.resumed!.reply.content).toContainEqual({
      type: 'text',
      text: expect.stringContaining('312 min of impact'),
    });

    const approval = result.approval!;
    expect(approval.stopped.metadata['generateReason']).toBe('approval_required');
    expect(approval.pending.map((call) => call.name)).toEqual(['publish_report']);
    expect(approval.approved).toBe(true);
    const order = ['stopped for approval', 'approved', 'publish_report ran'].map((what) =>
      at(result.timeline, what),
    );
    expect(order.every((index) => index >= 0)).toBe(true);
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(await readFile(join(dir, 'outbox', 'ops.md'), 'utf8')).toContain('INC-1004');
    expectValidConversation(result.resumed!.agent.memory.messages());
  });

  it('continues in a second run (--resume) from what the first run (--interrupt-only) saved', async () => {
    const dir = await sessionDir();

    const fast = {
      env: {},
      interactive: false,
      sessionDir: dir,
      monthMs: 100,
      interruptAfterMs: 250,
    };

    const first = await main({ ...fast, out: capture().out, argv: ['--interrupt-only'] });
    const secondOut = capture();
    const second = await main({ ...fast, out: secondOut.out, argv: ['--resume', '--approve'] });

    expect(first.resumed).toBeUndefined();
    expect(second.interrupted).toBeUndefined();
    const heard = second.resumed!.firstRequest.flatMap(toolResults).map((r) => String(r.output));
    expect(heard).toEqual([expect.stringMatching(/^\[interrupted\]/)]);
    expect(second.approval!.reply.content).toContainEqual({
      type: 'text',
      text: expect.stringContaining('Published'),
    });
    // Each progress message of the scan on a line of its own under the tool call.
    const progress = secondOut
      .text()
      .split('\n')
      .filter((line) => line.includes('scanned '));
    expect(progress).toEqual([
      '  ┆ scanned Oct 2024: 2 incident(s)',
      '  ┆ scanned Nov 2024: 2 incident(s)',
      '  ┆ scanned Dec 2024: 1 incident(s)',
    ]);
  });

  it('runs --resume again on the conversation the last --resume saved, keeping it valid', async () => {
    const dir = await sessionDir();
    const fast = {
      env: {},
      interactive: false,
      sessionDir: dir,
      monthMs: 50,
      interruptAfterMs: 120,
    };

    await main({ ...fast, out: capture().out, argv: ['--interrupt-only'] });
    await main({ ...fast, out: capture().out, argv: ['--resume', '--approve'] });
    // The scripted model plays the same calls (same ids) again: they must not clash with
    // the ones the restored conversation holds.
    const again = await main({ ...fast, out: capture().out, argv: ['--resume', '--approve'] });

    const messages = again.approval!.reply.content;
    expect(messages).toContainEqual({ type: 'text', text: expect.stringContaining('Published') });
    expect(again.approval!.pending.map((call) => call.id)).toEqual(['call_publish_2']);
    const saved = await new JsonFileSession(dir).load('incident-assistant');
    const reloaded = new ReActAgent({
      name: 'assistant',
      sysPrompt: '',
      model: new ScriptedChatModel([]),
    });
    reloaded.loadStateDict(saved!);
    expectValidConversation(reloaded.memory.messages());
  });

  it('denies the held call when nobody is at a terminal to approve it, and publishes nothing', async () => {
    const dir = await sessionDir();
    const { out, text } = capture();

    const result = await main({
      out,
      env: {},
      interactive: false,
      sessionDir: dir,
      monthMs: 50,
      interruptAfterMs: 120,
    });

    expect(text()).toContain(
      'approve publish_report? no: stdin is not a terminal, so nobody can approve it and it is denied',
    );
    expect(result.approval!.approved).toBe(false);
    expect(at(result.timeline, 'declined')).toBeGreaterThanOrEqual(0);
    expect(at(result.timeline, 'publish_report ran')).toBe(-1);
    await expect(stat(join(dir, 'outbox', 'ops.md'))).rejects.toThrow(/ENOENT/);
    expect(result.approval!.reply.content).toContainEqual({
      type: 'text',
      text: expect.stringContaining('did not publish'),
    });
    expectValidConversation(result.resumed!.agent.memory.messages());
  });

  it('interrupts on a keypress and never publishes when the user declines', async () => {
    const dir = await sessionDir();
    const input = Object.assign(new PassThrough(), {
      isTTY: true,
      isRaw: false,
      setRawMode(mode: boolean) {
        input.isRaw = mode;
        return input;
      },
    });
    const { out, text, when } = capture();
    // A terminal: the renderer shows its spinner while the scan runs.
    Object.assign(out, { isTTY: true });
    when('press any key', () => input.write('x'));
    when('Approve publish_report? [y/N]', () => input.write('n\n'));

    const result = await main({
      out,
      env: {},
      interactive: true,
      input: input as unknown as Input,
      sessionDir: dir,
      monthMs: 200,
    });

    expect(result.interrupted!.endedAt - result.interrupted!.toolStartedAt).toBeLessThan(1_200);
    // The hint starts its own line: the spinner line was erased first.
    const hint = text().indexOf('(press any key');
    expect(text().slice(hint - ERASE_LINE.length, hint)).toBe(ERASE_LINE);
    expect(input.isRaw).toBe(false);
    expect(result.approval!.approved).toBe(false);
    expect(at(result.timeline, 'publish_report ran')).toBe(-1);
    await expect(stat(join(dir, 'outbox', 'ops.md'))).rejects.toThrow(/ENOENT/);
    expect(result.approval!.reply.content).toContainEqual({
      type: 'text',
      text: expect.stringContaining('did not publish'),
    });
    expectValidConversation(result.resumed!.agent.memory.messages());
  });
});
