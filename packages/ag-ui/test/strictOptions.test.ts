import { agUiHandler, toAgUiEvents } from '@rxagent/ag-ui';
import { EchoAgent } from '@rxagent/core/testing';
import { firstValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';

describe('options objects of ag-ui reject unknown keys', () => {
  it('agUiHandler names the unknown key and the right one', () => {
    const agent = new EchoAgent({ name: 'echo' });
    const make = () => agUiHandler(() => agent, { maxBodyByte: 10 } as never);
    expect(make).toThrow(TypeError);
    expect(make).toThrow(
      /^agUiHandler: unknown option "maxBodyByte" \(did you mean "maxBodyBytes"\?\)/,
    );
  });

  it('toAgUiEvents errors before running the call, never synchronously', async () => {
    const agent = new EchoAgent({ name: 'echo' });
    const events = toAgUiEvents(agent.stream('hi'), { threadId: 't', runid: 'r' } as never);
    await expect(firstValueFrom(events)).rejects.toThrow(
      /toAgUiEvents\(\): unknown option "runid" \(did you mean "runId"\?\)/,
    );
    expect(agent.calls).toEqual([]);
  });
});
