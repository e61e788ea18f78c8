import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { workspacePackages } from '../api/apiReport.js';
import { ProcessPool } from '../testing/processPool.js';
import { type CommandResult, describeFailure, plainEnv, runCommand } from './runCommand.js';

/** The pnpm that packs (and so replaces `workspace:*` with real versions). */
export const PNPM = 'pnpm@10.34.9';

/** A workspace package and the workspace packages it depends on. */
export interface WorkspacePackage {
  readonly dir: string;
  readonly name: string;
  readonly version: string;
  readonly manifest: PackageManifest;
  readonly workspaceDeps: readonly string[];
}

/** The parts of a package.json these checks read. */
export interface PackageManifest {
  name: string;
  version: string;
  scripts?: Record<string, string>;
  exports?: Record<string, Record<string, string>>;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  files?: string[];
  engines?: Record<string, string>;
  license?: string;
}

/** The publishable packages (`packages/*`), with their workspace dependencies. */
export function publishablePackages(root: string): WorkspacePackage[] {
  return workspacePackages(root).map((dir) => {
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as PackageManifest;
    const workspaceDeps = Object.entries(manifest.dependencies ?? {})
      .filter(([, range]) => range.startsWith('workspace:'))
      .map(([name]) => name);
    return { dir, name: manifest.name, version: manifest.version, manifest, workspaceDeps };
  });
}

/**
 * Packs every package with `pnpm pack` (its `prepack` builds `dist/`) into `destination`, a
 * package only after the workspace packages it depends on (their `dist/` types are what it
 * compiles against), at most `pool.limit` at a time (each `pnpm pack` killed after
 * `timeoutMs`). Resolves with each package's tarball
 * path by name; rejects naming the first package that failed to pack.
 */
export async function packPackages(
  packages: readonly WorkspacePackage[],
  destination: string,
  pool: ProcessPool = new ProcessPool(),
  timeoutMs = 120_000,
): Promise<Map<string, string>> {
  const tarballs = new Map<string, string>();
  const done = new Map<string, Promise<void>>();
  const pack = (pkg: WorkspacePackage): Promise<void> => {
    const existing = done.get(pkg.name);
    if (existing) return existing;
    const promise = (async () => {
      await Promise.all(
        pkg.workspaceDeps.map((name) => {
          const dep = packages.find((candidate) => candidate.name === name);
          return dep ? pack(dep) : Promise.resolve();
        }),
      );
      // The slot is taken only once the dependencies are packed, so waiting never holds one.
      const result: CommandResult = await pool.run(() =>
        runCommand('npx', ['-y', PNPM, 'pack', '--pack-destination', destination], {
          cwd: pkg.dir,
          env: plainEnv(),
          timeoutMs,
        }),
      );
      if (result.code !== 0) throw new Error(describeFailure(`pnpm pack of ${pkg.name}`, result));
      const file = `${pkg.name.replace(/^@/, '').replace('/', '-')}-${pkg.version}.tgz`;
      tarballs.set(pkg.name, join(destination, basename(file)));
    })();
    done.set(pkg.name, promise);
    return promise;
  };
  await Promise.all(packages.map(pack));
  return tarballs;
}
