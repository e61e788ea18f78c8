import { otelHook } from '@rxagent/otel';
import { describe, expect, it } from 'vitest';

describe('otelHook options', () => {
  it('rejects an unknown key with a TypeError naming the right one', () => {
    const make = () => otelHook({ capture_content: true } as never);
    expect(make).toThrow(TypeError);
    expect(make).toThrow(
      /^otelHook: unknown option "capture_content" \(did you mean "captureContent"\?\)/,
    );
  });
});
