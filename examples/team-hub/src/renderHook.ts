import type { AgentEvent, Hook } from '@rxagent/core';
import {
  formatEvent,
  initialRenderState,
  type RenderState,
  shouldColor,
  styleFor,
} from '@rxagent/terminal';

/** Where the examples print: a stream, like `process.stdout`. */
export type Out = NodeJS.WritableStream & { readonly isTTY?: boolean };

/**
 * A hook that renders an agent's calls the way `renderEvents()` renders `stream()`: pipelines
 * call agents with `call()`, so the events are taken where they happen, in the hooks. Rendering
 * pauses while `muted()` is true (the concurrent fan-out round prints its answers afterwards).
 */
export function renderHook(out: Out, muted: () => boolean = () => false): Hook {
  const color = shouldColor(out);
  let state: RenderState = initialRenderState({ color });
  const render = (event: AgentEvent): void => {
    const rendered = formatEvent(event, state, Date.now());
    state = rendered.state;
    if (rendered.text !== '') out.write(rendered.text);
  };
  return {
    name: 'render',
    priority: 1_000,
    onEvent(event) {
      if (muted()) return;
      if (event.type === 'preCall') {
        state = initialRenderState({ color, startedAt: Date.now() });
        out.write(`${styleFor(color).bold(`[${event.agent.name}]`)}\n`);
      } else if (event.type === 'postCall') {
        render({ type: 'reply', msg: event.reply });
      } else {
        render(event);
      }
    },
  };
}
