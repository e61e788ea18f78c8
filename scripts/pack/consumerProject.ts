import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Writes an npm project that uses the packages the way an application would: ESM, strict
 * TypeScript with `module: nodenext` and no custom export conditions (so the tarballs' `dist`
 * is what resolves), compiling `main.ts` to `dist/main.js`.
 */
export function writeConsumerProject(dir: string, main: string): void {
  writeFileSync(
    join(dir, 'package.json'),
    `${JSON.stringify({ name: 'rxagent-consumer', private: true, type: 'module' }, null, 2)}\n`,
  );
  const compilerOptions = {
    target: 'ES2023',
    lib: ['ES2023'],
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    types: ['node'],
    strict: true,
    noUncheckedIndexedAccess: true,
    exactOptionalPropertyTypes: true,
    verbatimModuleSyntax: true,
    // As most applications do: the third-party declarations would cost ~20 s to check.
    skipLibCheck: true,
    outDir: 'dist',
  };
  writeFileSync(
    join(dir, 'tsconfig.json'),
    `${JSON.stringify({ compilerOptions, include: ['main.ts'] }, null, 2)}\n`,
  );
  writeFileSync(join(dir, 'main.ts'), main);
}
