// A thin, type-aware layer on top of Biome: only what an RxJS-aware linter can catch
// (floating Observables, ignored errors, nested subscribes, unsafe takeUntil ...).
import rxjsX from 'eslint-plugin-rxjs-x';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'bench/results/**'] },
  {
    files: ['packages/*/src/**/*.ts'],
    ignores: ['**/*.test.ts'],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { 'rxjs-x': rxjsX },
    rules: {
      'rxjs-x/no-floating-observables': 'error',
      'rxjs-x/no-ignored-error': 'error',
      'rxjs-x/no-nested-subscribe': 'error',
      'rxjs-x/no-unsafe-takeuntil': 'error',
      'rxjs-x/no-unbound-methods': 'error',
      'rxjs-x/no-async-subscribe': 'error',
      'rxjs-x/no-create': 'error',
      'rxjs-x/no-internal': 'error',
      'rxjs-x/no-subject-value': 'error',
      'rxjs-x/throw-error': 'error',
    },
  },
);
