import { userMsg } from '@rxagent/core';
import { ScriptedChatModel } from '@rxagent/core/testing';
import { ReActAgent } from '@rxagent/react-agent';
import { renderEvents } from '@rxagent/terminal';
import { lastValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { captureOutput, reportFailure } from '../src/index.js';

describe('reportFailure', () => {
  it('prints an error the renderer already showed once: the renderer line, then only the time', async () => {
    const agent = new ReActAgent({
      name: 'bot',
      sysPrompt: 'Hi.',
      model: new ScriptedChatModel([{ error: { status: 400, message: 'bad request' } }]),
    });
    const out = captureOutput();
    const error = await lastValueFrom(
      agent.stream(userMsg('Hi')).pipe(renderEvents({ out: out.out })),
    ).catch((caught: unknown) => caught);
    const err = captureOutput();

    reportFailure(error, '0.4', err.out);

    expect(out.text().match(/bad request/g)).toHaveLength(1);
    expect(err.text()).toBe('\n(failed after 0.4 s)\n');
  });

  it('prints the stack of an error nothing rendered', () => {
    const err = captureOutput();
    reportFailure(new Error('No saved conversation'), '0.1', err.out);
    expect(err.text()).toMatch(/^Error: No saved conversation\n\s+at /);
    reportFailure('plain text', '0.1', err.out);
    expect(err.text().endsWith('plain text\n')).toBe(true);
  });
});
