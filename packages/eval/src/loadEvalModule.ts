import { stat } from 'node:fs/promises';
import { extname } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { EvaluateOptions } from './evaluate.js';
import { UsageError } from './usageError.js';

/** Imports a module by URL (the `import()` of the command; a test may stand in for it). */
export type ModuleImporter = (url: string) => Promise<Record<string, unknown>>;

const TYPESCRIPT = new Set(['.ts', '.mts', '.cts', '.tsx']);

/**
 * The options of `evaluate()` an eval module at `path` exports: its default export or its
 * export `config`, or what a function exported there returns. Rejects with `UsageError` when
 * there is no file at `path`, when it is TypeScript and Node cannot load TypeScript (no
 * tsx), or when it exports no config; an error the module itself throws while loading is
 * passed on as it is.
 */
export async function loadEvalModule(
  path: string,
  importModule: ModuleImporter = (url) => import(url) as Promise<Record<string, unknown>>,
): Promise<EvaluateOptions> {
  const found = await stat(path).catch(() => undefined);
  if (found === undefined) throw new UsageError(`rxagent-eval: no eval module at ${path}.`);
  if (!found.isFile())
    throw new UsageError(`rxagent-eval: ${path} is not a file: give the eval module's path.`);
  let module: Record<string, unknown>;
  try {
    module = await importModule(pathToFileURL(path).href);
  } catch (error) {
    if (codeOf(error) === 'ERR_UNKNOWN_FILE_EXTENSION' && TYPESCRIPT.has(extname(path)))
      throw new UsageError(
        `rxagent-eval: ${path} is TypeScript, which this Node cannot load by itself: install tsx (npm install -D tsx) or give a JavaScript module.`,
        { cause: error },
      );
    throw error;
  }
  const exported = module['default'] ?? module['config'];
  const config = typeof exported === 'function' ? await (exported as () => unknown)() : exported;
  if (typeof config !== 'object' || config === null)
    throw new UsageError(
      `rxagent-eval: ${path} exports no eval config: export default the options of evaluate() (or a function returning them).`,
    );
  return config as EvaluateOptions;
}

function codeOf(error: unknown): unknown {
  return typeof error === 'object' && error !== null
    ? (error as { code?: unknown }).code
    : undefined;
}
