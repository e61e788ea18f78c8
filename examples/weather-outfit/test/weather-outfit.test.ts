import { textOf } from '@rxagent/core';
import { captureOutput } from '@rxagent/example-kit';
import { describe, expect, it } from 'vitest';
import { FORECASTS } from '../src/forecasts.js';
import { main } from '../src/main.js';

describe('weather-outfit example (offline)', () => {
  it('checks the forecast with a tool and answers with its temperatures', async () => {
    const { out, text } = captureOutput();
    const reply = await main({ out, env: {}, paceMs: 0 });
    const tomorrow = FORECASTS['shanghai']![1];
    const output = text();

    expect(output.split('\n')[0]).toMatch(/^mode: offline/);
    expect(output).toContain('→ get_weather {"city":"Shanghai","day":"tomorrow"}');
    expect(output).toContain(`→ recommend_outfit {"lowC":${tomorrow.lowC},"highC":${tomorrow.highC}`);
    expect(textOf(reply)).toContain(`${tomorrow.lowC}–${tomorrow.highC} °C`);
    expect(textOf(reply)).toContain('umbrella');
    expect(output).toMatch(/✓ \d+\.\d s · \d+ in \/ \d+ out tokens\n$/);
  });
});
