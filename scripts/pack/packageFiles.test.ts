import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { publishablePackages } from './packPackages.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

describe('the files every publishable package ships besides its code', () => {
  const license = readFileSync(join(root, 'LICENSE'), 'utf8');
  const packages = publishablePackages(root);

  it('has the MIT LICENSE of the repository root, a license field and public access', () => {
    expect(license).toMatch(/^MIT License\n/);
    expect(packages.length).toBeGreaterThanOrEqual(7);
    for (const pkg of packages) {
      expect(readFileSync(join(pkg.dir, 'LICENSE'), 'utf8'), pkg.name).toBe(license);
      expect(pkg.manifest.license, pkg.name).toBe('MIT');
      expect(pkg.manifest.files, pkg.name).toEqual(
        expect.arrayContaining(['LICENSE', 'README.md']),
      );
      const { publishConfig } = pkg.manifest as { publishConfig?: { access?: string } };
      expect(publishConfig?.access, pkg.name).toBe('public');
    }
  });

  it('has a README.md titled with its name', () => {
    for (const pkg of packages) {
      const readme = join(pkg.dir, 'README.md');
      expect(existsSync(readme), pkg.name).toBe(true);
      expect(readFileSync(readme, 'utf8').split('\n')[0], pkg.name).toBe(`# ${pkg.name}`);
    }
  });
});
