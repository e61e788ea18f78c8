import { type AgentBase, checkOptions, type Hook, type HookEvent } from '@rxagent/core';
import { RENDER_KEYS, type RenderOptions } from './renderEvents.js';
import { shouldColor, styleFor } from './style.js';
import { TerminalRenderer } from './terminalRenderer.js';

/** Options of `renderHub`. */
export interface RenderHubOptions extends RenderOptions {
  /**
   * Rendering pauses while this returns true (e.g. during a concurrent fan-out round, whose
   * interleaved tokens would be unreadable; print its answers afterwards). Default: never.
   */
  readonly muted?: () => boolean;
  /** Priority of the rendering hooks (default 1,000: after the application's own hooks). */
  readonly priority?: number;
}

/** The agents of a hub or pipeline: an array, or anything with `participants` (a `MsgHub`). */
export type RenderedAgents = readonly AgentBase[] | { readonly participants: readonly AgentBase[] };

/**
 * Renders the calls of several agents — the participants of a `MsgHub`, the agents of a
 * sequential, fan-out or handoff pipeline — the way `renderEvents()` renders one `stream()`.
 * Pipelines and hubs call their agents with `call()`, so the events are taken where they
 * happen: a hook is added to each agent. Each call starts with a bold `[name]` header line,
 * then its streamed tokens, tool calls and results (each with the time the tool took), and
 * ends with its time and usage line; a failed call's error is printed once. In a TTY, a
 * waiting indicator shows the running tools and their elapsed time. An agent used as another's tool (`asTool`) need not
 * be listed: it shows through its caller's tool call.
 *
 * `notes` print between the events as with `renderEvents`, until the remover is called.
 * Returns a function that removes every hook it added. Agents added to a hub later are not
 * rendered: call `renderHub` for them too.
 *
 * @example
 * ```ts
 * const stop = renderHub([researcher, writer]);
 * await lastValueFrom(sequentialPipeline([researcher, writer], userMsg(topic)));
 * stop();
 * ```
 */
export function renderHub(agents: RenderedAgents, options: RenderHubOptions = {}): () => void {
  checkOptions(options, [...RENDER_KEYS, 'muted', 'priority'], 'renderHub');
  const list = 'participants' in agents ? agents.participants : agents;
  const out = options.out ?? process.stdout;
  const muted = options.muted ?? (() => false);
  const color = options.color ?? shouldColor(out);
  const bold = styleFor(color).bold;
  const renderer = new TerminalRenderer({
    out,
    color,
    showThinking: options.showThinking ?? false,
    clock: options.clock ?? Date.now,
    progress: options.progress ?? out.isTTY === true,
  });
  const hook: Hook = {
    name: 'renderHub',
    priority: options.priority ?? 1_000,
    onEvent(event: HookEvent) {
      if (muted()) return;
      if (event.type === 'preCall') {
        renderer.write(
          `${renderer.state.atLineStart ? '' : '\n'}${bold(`[${event.agent.name}]`)}\n`,
        );
        renderer.reset();
      } else if (event.type === 'postCall') {
        renderer.event({ type: 'reply', msg: event.reply });
      } else {
        renderer.event(event);
      }
    },
  };
  const removers = list.map((agent) => agent.addHook(hook));
  const notes = options.notes?.subscribe({
    next: (text) => {
      if (!muted()) renderer.note(text);
    },
    // No call to fail here: the rendering goes on, and says why the notes stopped.
    error: (error: unknown) =>
      renderer.note(`(notes stopped: ${error instanceof Error ? error.message : String(error)})`),
  });
  return () => {
    notes?.unsubscribe();
    for (const remove of removers) remove();
    renderer.dispose();
  };
}
