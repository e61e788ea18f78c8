/**
 * The checkpoints alone, before/after (not part of `pnpm bench`): the seven saves a turn of
 * the durable suite's long chat (a question, a `read_source` call with a 5 KB result, an
 * answer) through the `Checkpointer` of two builds, on an `InMemorySession` and on a
 * session that stores nothing, interleaved in one process: CPU µs per turn of 20-turn
 * conversations, and B/A per round. No agent runs: the states are what a ReActAgent's
 * checkpoints hold (the memory's frozen messages view, the call and its progress), each saved
 * the way the build's agent saves it (`saveNow` when it has one, else `save`).
 * Usage: `node --import tsx src/tools/checkpointCost.ts <buildA> <buildB> [rounds]`
 * (builds from `src/build/buildPackages.ts <repoRoot> <outDir>`).
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { JsonObject, Session } from '@rxagent/core';
import { interleave } from '../lib/interleave.js';
import { pairRatios, summarize } from '../lib/stats.js';

interface CheckpointLike {
  state: JsonObject;
  call?: JsonObject;
}
interface CheckpointerLike {
  save(checkpoint: CheckpointLike): Promise<void>;
  /** Builds from 2 December (third session) on: the synchronous save an agent tries first. */
  saveNow?(checkpoint: CheckpointLike): boolean;
}
interface BuildCheckpoints {
  readonly Checkpointer: new (options: { session: Session; key: string }) => CheckpointerLike;
  readonly InMemorySession: new () => Session;
}

const TURNS = 20;
const CONVERSATIONS = 20;
const PAGE = 'The review covers trials, costs and deployment. '.repeat(105);

/** A versioned session that keeps nothing: what the checkpoints cost without a store. */
class NoopSession {
  async save(): Promise<void> {}
  async loadVersioned(): Promise<undefined> {
    return undefined;
  }
  async load(): Promise<undefined> {
    return undefined;
  }
  async delete(): Promise<void> {}
  async list(): Promise<string[]> {
    return [];
  }
}

async function load(dir: string): Promise<BuildCheckpoints> {
  const at = (path: string) => pathToFileURL(join(dir, 'node_modules/@rxagent/core', path)).href;
  const { Checkpointer } = await import(at('durable/checkpointer.js'));
  const { InMemorySession } = await import(at('index.js'));
  return { Checkpointer, InMemorySession };
}

let ids = 0;
const msg = (role: string, content: JsonObject[]): JsonObject => ({
  id: `m${ids++}`,
  name: 'researcher',
  role,
  content,
  metadata: {},
  timestamp: new Date().toISOString(),
});

/** One 20-turn conversation's checkpoints, in the order a ReActAgent saves them. */
async function conversation(build: BuildCheckpoints, session: Session): Promise<void> {
  const checkpointer = new build.Checkpointer({ session, key: `run-${ids++}` });
  const messages: JsonObject[] = [];
  const input: JsonObject[] = [];
  // As a durable agent saves: at once when the build and the session can, else queued.
  const save = async (progress?: JsonObject) => {
    const checkpoint = {
      state: {
        version: 1,
        agentName: 'researcher',
        memory: { version: 1, messages: Object.freeze([...messages]) as JsonObject[] },
        toolkit: { version: 1, disabled: [] },
        approvals: { version: 1, remembered: [] },
      },
      call: {
        id: 'call',
        status: 'running',
        input,
        options: {},
        ...(progress && { progress }),
        recoveries: 0,
      },
    };
    if (checkpointer.saveNow?.(checkpoint) !== true) await checkpointer.save(checkpoint);
  };
  const progress = (next: JsonObject, started: string[] = []): JsonObject => ({
    admitted: true,
    next,
    started,
    iterations: 1,
    toolFailureStreak: 0,
    emptyAnswerReminded: false,
    planReminded: false,
    spent: { costUsd: 0 },
  });
  for (let turn = 0; turn < TURNS; turn++) {
    const id = `call_${turn}`;
    messages.push(msg('user', [{ type: 'text', text: `Question ${turn}` }]));
    await save();
    messages.push(
      msg('assistant', [{ type: 'tool_use', id, name: 'read_source', input: { topic: 'solar' } }]),
    );
    await save(progress({ kind: 'act' }));
    await save(progress({ kind: 'act' }, [id]));
    const output = `# solar\n${PAGE}`.slice(0, 5_000);
    messages.push(msg('tool', [{ type: 'tool_result', id, name: 'read_source', output }]));
    await save(progress({ kind: 'act' }, [id]));
    await save(progress({ kind: 'reason' }));
    const reply = msg('assistant', [{ type: 'text', text: 'The review covers trials.' }]);
    messages.push(reply);
    await save(progress({ kind: 'final', reply }));
    await save(progress({ kind: 'final', reply }));
  }
}

const [dirA, dirB, roundsArg = '11'] = process.argv.slice(2);
if (!dirA || !dirB) throw new Error('usage: checkpointCost.ts <buildA> <buildB> [rounds]');
const builds = { A: await load(dirA), B: await load(dirB) };
for (const kind of ['InMemorySession', 'noop'] as const) {
  const samples = await interleave(
    (['A', 'B'] as const).map((label) => ({
      label,
      sample: async () => {
        const build = builds[label];
        const cpu0 = process.cpuUsage();
        for (let i = 0; i < CONVERSATIONS; i++) {
          const session = kind === 'noop' ? new NoopSession() : new build.InMemorySession();
          await conversation(build, session as unknown as Session);
        }
        const cpu = process.cpuUsage(cpu0);
        return { cpu: (cpu.user + cpu.system) / (CONVERSATIONS * TURNS) };
      },
    })),
    Number(roundsArg),
    2,
  );
  const a = summarize(samples.get('A', 'cpu'));
  const b = summarize(samples.get('B', 'cpu'));
  const ratio = summarize(pairRatios(samples.get('B', 'cpu'), samples.get('A', 'cpu')));
  process.stdout.write(
    `checkpoints, ${kind}: CPU µs per turn (7 saves): A ${a.median.toFixed(1)} (${a.min.toFixed(1)}–${a.max.toFixed(1)}), ` +
      `B ${b.median.toFixed(1)} (${b.min.toFixed(1)}–${b.max.toFixed(1)}), B/A ${ratio.median.toFixed(3)} (${ratio.min.toFixed(3)}–${ratio.max.toFixed(3)})\n`,
  );
}
