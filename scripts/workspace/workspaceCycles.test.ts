import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { dependencyCycles, type WorkspacePackage, workspacePackages } from './workspaceGraph.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

const pkg = (name: string, ...dependsOn: string[]): WorkspacePackage => ({
  name,
  dir: name,
  dependsOn,
});

describe('dependencyCycles', () => {
  it('finds none in a graph without cycles, diamonds included', () => {
    const graph = [pkg('a', 'b', 'c'), pkg('b', 'd'), pkg('c', 'd'), pkg('d')];
    expect(dependencyCycles(graph)).toEqual([]);
  });

  it('names each cycle once, from its alphabetically first package', () => {
    const graph = [pkg('core'), pkg('redis', 'core', 'react'), pkg('react', 'core', 'redis')];
    expect(dependencyCycles(graph)).toEqual([['react', 'redis', 'react']]);
    const longer = [pkg('x', 'y'), pkg('y', 'z'), pkg('z', 'x'), pkg('self', 'self')];
    expect(dependencyCycles(longer)).toEqual([
      ['self', 'self'],
      ['x', 'y', 'z', 'x'],
    ]);
  });
});

describe('workspacePackages', () => {
  it('reads the packages pnpm-workspace.yaml lists, linked by any kind of dependency', () => {
    const dir = mkdtempSync(join(tmpdir(), 'workspace-'));
    try {
      writeFileSync(join(dir, 'pnpm-workspace.yaml'), "packages:\n  - packages/*\n  - 'tool'\n");
      const manifest = (path: string, content: object): void => {
        mkdirSync(join(dir, path), { recursive: true });
        writeFileSync(join(dir, path, 'package.json'), JSON.stringify(content));
      };
      manifest('packages/a', { name: 'a', dependencies: { b: 'workspace:*', zod: '4.6.7' } });
      manifest('packages/b', { name: 'b', devDependencies: { c: 'workspace:*' } });
      manifest('tool', { name: 'c', peerDependencies: { a: 'workspace:*' } });
      mkdirSync(join(dir, 'packages/not-a-package'));
      const packages = workspacePackages(dir);
      expect(packages.map((p) => [p.dir, p.name, p.dependsOn])).toEqual([
        ['packages/a', 'a', ['b']],
        ['packages/b', 'b', ['c']],
        ['tool', 'c', ['a']],
      ]);
      expect(dependencyCycles(packages)).toEqual([['a', 'b', 'c', 'a']]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the workspace packages', () => {
  const packages = workspacePackages(root);

  it('are read from pnpm-workspace.yaml with their workspace dependencies of every kind', () => {
    const names = packages.map((p) => p.name);
    expect(names).toEqual(expect.arrayContaining(['@rxagent/core', '@rxagent/redis']));
    expect(packages.find((p) => p.dir === 'bench')?.dependsOn).toContain('@rxagent/core');
    // A dev dependency counts: pnpm links (and orders) workspace packages by it too.
    const redis = packages.find((p) => p.name === '@rxagent/redis');
    expect(redis?.dependsOn).toEqual(
      expect.arrayContaining(['@rxagent/core', '@rxagent/react-agent']),
    );
  });

  it('depend on each other without a cycle (dependencies, devDependencies, peerDependencies)', () => {
    const cycles = dependencyCycles(packages).map((cycle) => cycle.join(' → '));
    expect(
      cycles,
      'a workspace package cycle: move the shared code so one side no longer needs the other',
    ).toEqual([]);
  });
});
