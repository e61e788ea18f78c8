import type { AgentEvent, Hook } from '@rxagent/core';
import {
  formatEvent,
  initialRenderState,
  type RenderState,
  shouldColor,
  styleFor,
} from '@rxagent/terminal';

/**
 * A hook that renders an agent's calls like `renderEvents()` renders a `stream()`: a pipeline
 * calls its agents with `call()`, so their events are taken in the hooks. An agent used as a
 * tool shows through its caller's `actingChunk` events, indented under the tool call.
 */
export function renderHook(out: NodeJS.WritableStream & { readonly isTTY?: boolean }): Hook {
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
