import type { PackageManifest } from './packPackages.js';
import { describeFailure, runCommand } from './runCommand.js';

/**
 * What is wrong with a package tarball, as sentences (none when it is fine): a `workspace:`
 * range left in its dependencies, an export subpath whose `types` or `default` file is not
 * in it (each needs its `.d.ts` and `.js`), a test file shipped, no `engines.node`, no
 * `LICENSE` or `README.md`, no `license` field.
 */
export async function tarballProblems(tarball: string): Promise<string[]> {
  const [listing, manifestText] = await Promise.all([
    runCommand('tar', ['-tzf', tarball], { cwd: '/' }),
    runCommand('tar', ['-xzOf', tarball, 'package/package.json'], { cwd: '/' }),
  ]);
  if (listing.code !== 0) return [describeFailure(`tar -tzf ${tarball}`, listing)];
  const files = new Set(listing.stdout.split('\n').map((line) => line.replace(/^package\//, '')));
  const manifest = JSON.parse(manifestText.stdout) as PackageManifest;
  const problems: string[] = [];
  const name = manifest.name;
  for (const field of ['dependencies', 'peerDependencies'] as const) {
    for (const [dep, range] of Object.entries(manifest[field] ?? {})) {
      if (range.startsWith('workspace:'))
        problems.push(`${name}: ${field}.${dep} is still ${range}`);
    }
  }
  if (!manifest.engines?.['node']) problems.push(`${name}: no engines.node`);
  if (!manifest.license) problems.push(`${name}: no license field`);
  for (const required of ['LICENSE', 'README.md']) {
    if (!files.has(required)) problems.push(`${name}: ${required} is not in the tarball`);
  }
  const subpaths = Object.entries(manifest.exports ?? {});
  if (subpaths.length === 0) problems.push(`${name}: no exports map`);
  for (const [subpath, conditions] of subpaths) {
    for (const [condition, extension] of [
      ['types', '.d.ts'],
      ['default', '.js'],
    ] as const) {
      const target = conditions[condition];
      if (target === undefined || !target.endsWith(extension)) {
        problems.push(`${name}: exports["${subpath}"].${condition} is not a ${extension} file`);
      } else if (!files.has(target.replace(/^\.\//, ''))) {
        problems.push(
          `${name}: exports["${subpath}"].${condition} ${target} is not in the tarball`,
        );
      }
    }
  }
  for (const file of files) {
    if (/\.test\.[cm]?[jt]s$/.test(file)) problems.push(`${name}: ships the test file ${file}`);
  }
  return problems;
}
