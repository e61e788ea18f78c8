import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markdownSnippets } from '../snippets/extractSnippets.js';
import { writeConsumerProject } from './consumerProject.js';
import { packPackages, publishablePackages } from './packPackages.js';
import { type CommandResult, describeFailure, plainEnv, runCommand } from './runCommand.js';
import { tarballProblems } from './tarballProblems.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const bin = (name: string): string => join(root, 'node_modules', '.bin', name);
const README_SECTION = '## Use the packages in your own project';

/** The runnable block of the README's section on using the packages from another project. */
function readmeProgram(): string {
  const text = readFileSync(join(root, 'README.md'), 'utf8');
  const sectionLine = text.split('\n').indexOf(README_SECTION) + 1;
  const block = markdownSnippets('README.md', text).find((s) => s.run && s.line > sectionLine);
  if (sectionLine === 0 || !block)
    throw new Error(`README.md has no runnable block under "${README_SECTION}".`);
  return `${block.code}\n`;
}

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

  beforeAll(async () => {
    mkdirSync(join(work, 'tarballs'));
    mkdirSync(consumer);
    tarballs = await packPackages(packages, join(work, 'tarballs'));
    writeConsumerProject(consumer, readmeProgram());
    const install = runCommand(
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
      ],
      { cwd: consumer, env: plainEnv(), timeoutMs: 150_000 },
    );
    // publint and arethetypeswrong read the tarballs (one at a time) while npm installs them.
    const checks = (async () => {
      const failures: string[] = [];
      for (const tarball of tarballs.values()) {
        const [publint, attw] = await Promise.all([
          runCommand(bin('publint'), ['run', tarball, '--strict'], { cwd: work }),
          runCommand(bin('attw'), [tarball, '--profile', 'esm-only', '--no-color', '--no-emoji'], {
            cwd: work,
          }),
        ]);
        if (publint.code !== 0) failures.push(describeFailure(`publint ${tarball}`, publint));
        if (attw.code !== 0) failures.push(describeFailure(`attw ${tarball}`, attw));
      }
      return failures;
    })();
    [installed, lint] = await Promise.all([install, checks]);
  }, 240_000);

  // Removing the consumer's node_modules takes more than the default 10 s on a busy machine.
  afterAll(() => rmSync(work, { recursive: true, force: true, maxRetries: 3 }), 60_000);

  it('builds every package on prepack with tsc -p tsconfig.build.json', () => {
    expect(packages.length).toBeGreaterThanOrEqual(7);
    for (const pkg of packages) {
      expect(pkg.manifest.scripts?.['prepack'], pkg.name).toBe('tsc -p tsconfig.build.json');
      expect(existsSync(join(pkg.dir, 'tsconfig.build.json')), pkg.name).toBe(true);
    }
    expect([...tarballs.keys()].sort()).toEqual(packages.map((pkg) => pkg.name).sort());
  });

  it('ships .js and .d.ts for every export subpath, real versions for workspace dependencies, no tests', async () => {
    const problems = await Promise.all([...tarballs.values()].map(tarballProblems));
    expect(problems.flat()).toEqual([]);
  }, 60_000);

  it('passes publint and arethetypeswrong (ESM-only profile)', () => {
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

  it("type-checks the README's program with tsc there and runs it with plain node", async () => {
    const tsc = await runCommand(
      process.execPath,
      [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'],
      { cwd: consumer },
    );
    expect(tsc.code, describeFailure('tsc', tsc)).toBe(0);
    const run = await runCommand(process.execPath, ['dist/main.js'], {
      cwd: consumer,
      env: plainEnv(),
    });
    expect(run.code, describeFailure('node dist/main.js', run)).toBe(0);
    expect(run.stdout).toBe('19 + 23 = 42.\n');
  }, 120_000);
});
