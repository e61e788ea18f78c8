import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { ParentMessage, ServerMessage } from './protocol.js';

type Stats = Extract<ServerMessage, { type: 'stats' }>;

/** The scripted server running in its own process (so its CPU time is not the client's). */
export class ServerProcess {
  readonly #child: ChildProcess;
  readonly baseURL: string;

  private constructor(child: ChildProcess, baseURL: string) {
    this.#child = child;
    this.baseURL = baseURL;
  }

  /**
   * Forks the server process and resolves once it listens: the strict OpenAI-compatible
   * server (`serverMain.ts`), or another entry speaking the same IPC protocol
   * (`anthropicServerMain.ts`).
   */
  static async start(main = 'serverMain.ts'): Promise<ServerProcess> {
    const entry = fileURLToPath(new URL(`./${main}`, import.meta.url));
    const child = fork(entry, [], {
      execArgv: process.execArgv.filter((arg) => !arg.startsWith('--cpu-prof')),
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const ready = await new Promise<Extract<ServerMessage, { type: 'ready' }>>(
      (resolve, reject) => {
        child.once('error', reject);
        child.once('exit', (code) => reject(new Error(`server process exited with code ${code}`)));
        const onMessage = (message: ServerMessage) => {
          if (message.type !== 'ready') return;
          child.off('message', onMessage);
          resolve(message);
        };
        child.on('message', onMessage);
      },
    );
    child.removeAllListeners('exit');
    child.removeAllListeners('error');
    return new ServerProcess(child, ready.baseURL);
  }

  /** How many requests were answered, parked and rejected (a rejection is a bench bug). */
  stats(): Promise<Stats> {
    return this.#ask({ type: 'stats' }, 'stats') as Promise<Stats>;
  }

  /** Resets the parked-request counter. */
  async resetParked(): Promise<void> {
    await this.#ask({ type: 'resetParked' }, 'ok');
  }

  /** Resolves once `count` `[park]` runs reached their last (never answered) model call. */
  waitParked(count: number): Promise<void> {
    return new Promise((resolve) => {
      const onMessage = (message: ServerMessage) => {
        if (message.type !== 'parked' || message.count < count) return;
        this.#child.off('message', onMessage);
        resolve();
      };
      this.#child.on('message', onMessage);
    });
  }

  /** Throws when the strict server rejected any request: the contenders must send valid ones. */
  async assertNoRejections(): Promise<void> {
    const stats = await this.stats();
    if (stats.rejectedCount > 0) {
      throw new Error(
        `The strict server rejected ${stats.rejectedCount} request(s): ${stats.rejected.join(' | ')}`,
      );
    }
  }

  /** Stops the server process. */
  async close(): Promise<void> {
    const exited = new Promise<void>((resolve) => this.#child.once('exit', () => resolve()));
    this.#child.send({ type: 'close' } satisfies ParentMessage);
    await exited;
  }

  #ask(message: ParentMessage, reply: ServerMessage['type']): Promise<ServerMessage> {
    return new Promise((resolve) => {
      const onMessage = (answer: ServerMessage) => {
        if (answer.type !== reply) return;
        this.#child.off('message', onMessage);
        resolve(answer);
      };
      this.#child.on('message', onMessage);
      this.#child.send(message);
    });
  }
}
