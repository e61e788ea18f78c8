import { textOf } from '@rxagent/core';
import { captureOutput } from '@rxagent/example-kit';
import { restateServerBinary } from '@rxagent/restate/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { main, type RestateAgentResult } from '../src/main.js';

const available = restateServerBinary() !== undefined;
if (!available && process.env['CI'] === 'true') {
  throw new Error(
    'restate-server is not installed, but CI=true needs it (@restatedev/restate-server).',
  );
}

describe.skipIf(!available)('restate-agent example (offline, a local restate-server)', () => {
  let result: RestateAgentResult;
  let output: string;

  beforeAll(async () => {
    const { out, text } = captureOutput();
    result = await main({ out, env: { PATH: process.env['PATH'] ?? '' } });
    output = text();
  }, 90_000);

  it('kills the endpoint mid-tool; the caller gets one reply and the booking ran once, in doubt', () => {
    expect(output.split('\n')[0]).toMatch(/^mode: offline/);
    expect(result.bookings).toBe(1);
    expect(textOf(result.reply)).toBe(
      'I could not confirm the booking of room 12: the desk stopped while it was being made.',
    );
    expect(textOf(result.followUp)).toMatch(/^Its outcome is unknown/);
    expect(output).toContain('was killed while book_room ran');
  });
});
