import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** One package of the workspace: its name, directory and workspace dependencies. */
export interface WorkspacePackage {
  readonly name: string;
  /** Its directory, relative to the workspace root (`packages/core`). */
  readonly dir: string;
  /** The workspace packages it depends on, through any kind of dependency. */
  readonly dependsOn: readonly string[];
}

/** The dependency fields that make pnpm link one workspace package into another. */
const DEPENDENCY_FIELDS = [
  'dependencies',
  'devDependencies',
  'peerDependencies',
  'optionalDependencies',
] as const;

/**
 * The directories `pnpm-workspace.yaml` lists under `packages:` (a `dir/*` pattern is every
 * sub-directory of `dir` with a package.json), relative to `root`, sorted.
 */
export function workspaceDirs(root: string): string[] {
  const yaml = readFileSync(join(root, 'pnpm-workspace.yaml'), 'utf8');
  const patterns = [...yaml.matchAll(/^\s+-\s+['"]?([^'"\s#]+)['"]?\s*$/gm)].map(
    (match) => match[1] as string,
  );
  const dirs = patterns.flatMap((pattern) => {
    if (pattern.startsWith('!')) return [];
    if (!pattern.endsWith('/*')) return [join(root, pattern)];
    const base = join(root, pattern.slice(0, -2));
    return readdirSync(base, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => join(base, entry.name));
  });
  return dirs
    .filter((dir) => existsSync(join(dir, 'package.json')))
    .map((dir) => relative(root, dir))
    .sort();
}

/** Every workspace package with the workspace packages its package.json depends on. */
export function workspacePackages(root: string): WorkspacePackage[] {
  const manifests = workspaceDirs(root).map((dir) => ({
    dir,
    manifest: JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')) as Record<
      string,
      unknown
    >,
  }));
  const names = new Set(manifests.map(({ manifest }) => manifest['name'] as string));
  return manifests.map(({ dir, manifest }) => {
    const dependsOn = new Set<string>();
    for (const field of DEPENDENCY_FIELDS) {
      const deps = (manifest[field] ?? {}) as Record<string, string>;
      for (const dep of Object.keys(deps)) if (names.has(dep)) dependsOn.add(dep);
    }
    return { name: manifest['name'] as string, dir, dependsOn: [...dependsOn].sort() };
  });
}

/**
 * Dependency cycles among `packages`, each as the names along it, its first name repeated at
 * the end (`['@x/a', '@x/b', '@x/a']`; a package that depends on itself is a cycle of one),
 * starting from its alphabetically first package. Empty when there is none. One depth-first
 * walk (linear in the packages and their dependencies) reports a cycle for every dependency
 * that leads back into the path walked, so every package on a cycle is on one reported.
 */
export function dependencyCycles(packages: readonly WorkspacePackage[]): string[][] {
  const edges = new Map(packages.map((pkg) => [pkg.name, pkg.dependsOn]));
  const done = new Set<string>();
  const path: string[] = [];
  const cycles = new Map<string, string[]>();
  const visit = (name: string): void => {
    path.push(name);
    for (const next of edges.get(name) ?? []) {
      const at = path.indexOf(next);
      if (at >= 0) {
        const cycle = path.slice(at);
        const start = cycle.indexOf([...cycle].sort()[0] as string);
        const rotated = [...cycle.slice(start), ...cycle.slice(0, start)];
        cycles.set(rotated.join(' → '), [...rotated, rotated[0] as string]);
      } else if (!done.has(next)) {
        visit(next);
      }
    }
    path.pop();
    done.add(name);
  };
  for (const pkg of [...packages].sort((a, b) => a.name.localeCompare(b.name))) {
    if (!done.has(pkg.name)) visit(pkg.name);
  }
  return [...cycles.values()];
}
