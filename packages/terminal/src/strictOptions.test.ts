import { describe, expect, it } from 'vitest';
import { renderEvents } from './renderEvents.js';
import { renderHub } from './renderHub.js';
import { initialRenderState } from './renderState.js';

describe('options objects of terminal reject unknown keys', () => {
  it.each([
    [
      'renderEvents',
      () => renderEvents({ colour: true } as never),
      /^renderEvents: unknown option "colour" \(did you mean "color"\?\)/,
    ],
    [
      'renderHub',
      () => renderHub([], { mute: () => true } as never),
      /^renderHub: unknown option "mute" \(did you mean "muted"\?\)/,
    ],
    [
      'initialRenderState',
      () => initialRenderState({ startAt: 0 } as never),
      /did you mean "startedAt"/,
    ],
  ])('%s', (_, make, message) => {
    expect(make).toThrow(TypeError);
    expect(make).toThrow(message);
  });
});
