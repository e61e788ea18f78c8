import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ChatModel, Hook } from '@rxagent/core';
import { lastValueFrom } from 'rxjs';
import {
  CALLS_PER_RUN,
  SYSTEM_PROMPT,
  scenarioTurn,
  USER_PROMPT,
} from '../scenario/conversation.js';
import { BENCH_TOOLS } from '../scenario/tools.js';

type Core = typeof import('@rxagent/core');
type Testing = typeof import('@rxagent/core/testing');
type React = typeof import('@rxagent/react-agent');
type AnthropicPackage = typeof import('@rxagent/anthropic');
type SqlitePackage = typeof import('@rxagent/sqlite');

/** One build of rxagent (from `buildPackages.ts`), loaded as its own module instances. */
export interface Build {
  readonly core: Core;
  readonly testing: Testing;
  readonly react: React;
  readonly anthropic: AnthropicPackage;
  /** Loaded on first use (`sqliteOf`): older builds may not have it. */
  readonly dir: string;
}

/** Loads the packages built into `dir` (its `node_modules/@rxagent/*`). */
export async function loadBuild(dir: string): Promise<Build> {
  const at = (path: string) => pathToFileURL(join(dir, 'node_modules/@rxagent', path)).href;
  return {
    core: (await import(at('core/index.js'))) as Core,
    testing: (await import(at('core/testing/index.js'))) as Testing,
    react: (await import(at('react-agent/index.js'))) as React,
    anthropic: (await import(at('anthropic/index.js'))) as AnthropicPackage,
    dir,
  };
}

/** The build's `@rxagent/sqlite`. */
export async function sqliteOf(build: Build): Promise<SqlitePackage> {
  const href = pathToFileURL(join(build.dir, 'node_modules/@rxagent/sqlite/index.js')).href;
  return (await import(href)) as SqlitePackage;
}

/**
 * The scenario's conversation on `build`: each run a fresh ReActAgent (with `hooks`), sharing
 * one toolkit, on the model `model()` gives (default: a scripted model playing the scenario),
 * resolving with the final answer's text.
 */
export function buildConversation(
  build: Build,
  model: () => ChatModel = () => scriptedModel(build),
  hooks: readonly Hook[] = [],
): () => Promise<string> {
  const { core, react } = build;
  const toolkit = new core.Toolkit(
    BENCH_TOOLS.map((t) =>
      core.tool({ name: t.name, description: t.description, parameters: t.args, execute: t.run }),
    ),
  );
  return async () => {
    const agent = new react.ReActAgent({
      name: 'assistant',
      sysPrompt: SYSTEM_PROMPT,
      model: model(),
      toolkit,
      ...(hooks.length > 0 && { hooks }),
    });
    const answer = await lastValueFrom(agent.call(core.userMsg(USER_PROMPT)));
    const block = answer.content[0];
    return block?.type === 'text' ? block.text : '';
  };
}

function scriptedModel(build: Build): ChatModel {
  return new build.testing.ScriptedChatModel(
    Array.from(
      { length: CALLS_PER_RUN },
      () => (request: { messages: Parameters<typeof scenarioTurn>[0] }) =>
        scenarioTurn(request.messages),
    ),
    { strict: false },
  );
}
