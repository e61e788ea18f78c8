import { existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markdownSnippets } from '../snippets/extractSnippets.js';
import { ProcessPool } from '../testing/processPool.js';
import { batchTimeLimit, scaled } from '../testing/timeLimits.js';
import { GUIDE, guideTsconfig, writeConsumerProject } from './consumerProject.js';
import { packPackages, publishablePackages } from './packPackages.js';
import {
  type CommandResult,
  describeFailure,
  killRunningCommands,
  plainEnv,
  runCommand,
} from './runCommand.js';
import { tarballProblems } from './tarballProblems.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const bin = (name: string): string => join(root, 'node_modules', '.bin', name);
const README_SECTION = '## Use the packages in your own project';

// Time limits, stretched on a busy machine: each command has its own, and each hook's is
// larger than the commands it waits for, so a slow command fails with its own message.
const PACK_MS = scaled(120_000);
const INSTALL_MS = scaled(180_000);
const CHECK_MS = scaled(60_000);
const CLEANUP_MS = scaled(60_000);

/** The runnable block of the README's section on using the packages from another project. */
function readmeProgram(): string {
  const text = readFileSync(join(root, 'README.md'), 'utf8');
  const sectionLine = text.split('\n').indexOf(README_SECTION) + 1;
  const block = markdownSnippets('README.md', text).find((s) => s.run && s.line > sectionLine);
  if (sectionLine === 0 || !block)
    throw new Error(`README.md has no runnable block under "${README_SECTION}".`);
  return `${block.code}\n`;
}

/**
 * The current TypeScript release line, installed in the consumer project beside the version
 * the workspace pins: what `npm install --save-dev typescript` gives a new user today. A
 * range on purpose (the rest is pinned): this checks the guide against new 7.x releases.
 */
const CURRENT_TYPESCRIPT = 'typescript@7';

/** An exact version the workspace pins for a third-party package (`package.json` dependencies). */
function pinned(manifestDir: string, name: string): string {
  const manifest = JSON.parse(readFileSync(join(root, manifestDir, 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
    devDependencies?: Record<string, string>;
  };
  const version = manifest.dependencies?.[name] ?? manifest.devDependencies?.[name];
  if (!version) throw new Error(`${manifestDir}/package.json does not pin ${name}.`);
  return `${name}@${version}`;
}

describe('the packages, packed and installed with npm outside the workspace', () => {
  const packages = publishablePackages(root);
  const work = mkdtempSync(join(tmpdir(), 'rxagent-pack-'));
  const consumer = join(work, 'consumer');
  let tarballs = new Map<string, string>();
  let installed: CommandResult | undefined;
  let lint: string[] = [];

  // Every child process of this file (packing, npm, publint, attw) takes a slot of one pool.
  const pool = new ProcessPool();
  // Packing in waves of `pool.limit`, then the install (the checks run beside it).
  const setupMs = batchTimeLimit(packages.length, pool.limit, PACK_MS) + INSTALL_MS;

  beforeAll(async () => {
    mkdirSync(join(work, 'tarballs'));
    mkdirSync(consumer);
    tarballs = await packPackages(packages, join(work, 'tarballs'), pool, PACK_MS);
    writeConsumerProject(consumer, readmeProgram(), guideTsconfig(root));
    const install = pool.run(() =>
      runCommand(
        'npm',
        [
          'install',
          '--no-audit',
          '--no-fund',
          '--prefer-offline',
          '--loglevel=error',
          ...tarballs.values(),
          pinned('.', 'rxjs'),
          pinned('.', '@types/node'),
          pinned('packages/core', 'zod'),
          pinned('packages/otel', '@opentelemetry/api'),
          CURRENT_TYPESCRIPT,
        ],
        { cwd: consumer, env: plainEnv(), timeoutMs: INSTALL_MS },
      ),
    );
    // publint and arethetypeswrong read the tarballs while npm installs them, in the pool's
    // other slots.
    // What `npm publish` would do, without publishing: no warning but the login one (this
    // machine is not logged in), and a public scoped package.
    const publishDryRun = async (tarball: string): Promise<string[]> => {
      const result = await pool.run(() =>
        runCommand('npm', ['publish', '--dry-run', `./${basename(tarball)}`], {
          cwd: dirname(tarball),
          env: plainEnv(),
          timeoutMs: CHECK_MS,
        }),
      );
      const warnings = result.stderr
        .split('\n')
        .filter(
          (line) => /^npm (warn|error)/i.test(line) && !/requires you to be logged in/.test(line),
        );
      if (result.code !== 0 || warnings.length > 0)
        return [describeFailure(`npm publish --dry-run ${tarball}`, result)];
      return /public access/.test(result.stderr + result.stdout)
        ? []
        : [`npm publish --dry-run ${tarball} did not say it publishes with public access`];
    };
    const check = async (what: string, command: string, args: string[]): Promise<string[]> => {
      const result = await pool.run(() =>
        runCommand(command, args, { cwd: work, timeoutMs: CHECK_MS }),
      );
      return result.code === 0 ? [] : [describeFailure(what, result)];
    };
    const checks = Promise.all(
      [...tarballs.values()].flatMap((tarball) => [
        publishDryRun(tarball),
        check(`publint ${tarball}`, bin('publint'), ['run', tarball, '--strict']),
        check(`attw ${tarball}`, bin('attw'), [
          tarball,
          '--profile',
          'esm-only',
          '--no-color',
          '--no-emoji',
        ]),
      ]),
    ).then((failures) => failures.flat());
    [installed, lint] = await Promise.all([install, checks]);
  }, setupMs);

  // The install holds every package's dependencies (the Anthropic SDK alone is thousands of
  // files). A setup cut by its time limit leaves its commands running: kill them before deleting
  // the directory they write to, with a limit of its own for the (large) node_modules.
  afterAll(async () => {
    await killRunningCommands();
    await rm(work, { recursive: true, force: true, maxRetries: 5 });
  }, CLEANUP_MS);

  it('builds every package on prepack with tsc -p tsconfig.build.json', () => {
    expect(packages.length).toBeGreaterThanOrEqual(7);
    for (const pkg of packages) {
      expect(pkg.manifest.scripts?.['prepack'], pkg.name).toBe('tsc -p tsconfig.build.json');
      expect(existsSync(join(pkg.dir, 'tsconfig.build.json')), pkg.name).toBe(true);
    }
    expect([...tarballs.keys()].sort()).toEqual(packages.map((pkg) => pkg.name).sort());
  });

  it(
    'ships .js and .d.ts for every export subpath, real versions for workspace dependencies, no tests',
    async () => {
      const problems = await pool.map([...tarballs.values()], tarballProblems);
      expect(problems.flat()).toEqual([]);
    },
    scaled(60_000),
  );

  it('passes publint, arethetypeswrong (ESM-only profile) and npm publish --dry-run', () => {
    expect(lint).toEqual([]);
  });

  it('installs with plain npm, our packages from the tarballs and the rest from the registry', () => {
    expect(installed?.code, installed && describeFailure('npm install', installed)).toBe(0);
    const lock = JSON.parse(readFileSync(join(consumer, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { resolved?: string; version?: string }>;
    };
    for (const pkg of packages) {
      const entry = lock.packages[`node_modules/${pkg.name}`];
      expect(entry?.resolved, pkg.name).toMatch(/^file:/);
      expect(entry?.version, pkg.name).toBe(pkg.version);
    }
  });

  it(
    `type-checks the README's program with ${GUIDE}'s tsconfig (the pinned and the current TypeScript) and runs it with plain node`,
    async () => {
      const compilers = [
        [pinned('.', 'typescript'), join(root, 'node_modules', 'typescript', 'bin', 'tsc')],
        [CURRENT_TYPESCRIPT, join(consumer, 'node_modules', 'typescript', 'bin', 'tsc')],
      ] as const;
      for (const [name, tsc] of compilers) {
        const version = await runCommand(process.execPath, [tsc, '--version'], { cwd: consumer });
        const major = name.slice('typescript@'.length).split('.')[0];
        expect(version.stdout, name).toMatch(new RegExp(`^Version ${major}\\.`));
        const result = await runCommand(process.execPath, [tsc, '-p', 'tsconfig.json'], {
          cwd: consumer,
        });
        expect(result.code, describeFailure(`${name} (${version.stdout.trim()})`, result)).toBe(0);
      }
      const run = await runCommand(process.execPath, ['dist/main.js'], {
        cwd: consumer,
        env: plainEnv(),
      });
      expect(run.code, describeFailure('node dist/main.js', run)).toBe(0);
      expect(run.stdout).toBe('19 + 23 = 42.\n');
    },
    scaled(180_000),
  );
});
