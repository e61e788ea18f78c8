// The gate's check command: `node checks.mjs <path/to/lib.mjs>`. It runs in its own process
// so the agent's code can neither crash nor fool the loop, and prints one JSON line:
// { "results": [{ "id", "title", "pass", "detail" }] }. It lives outside the agent's work
// directory, so the agent cannot edit its own exam.
import { pathToFileURL } from 'node:url';

/** The checklist, in order; TASK.md describes the same items to the agent. */
export const CHECKS = [
  {
    id: 'slugify-basic',
    title: 'slugify(text) lower-cases and joins words with "-"',
    cases: [
      ['slugify', ['Hello, World!'], 'hello-world'],
      ['slugify', ['  Many   spaces here '], 'many-spaces-here'],
    ],
  },
  {
    id: 'slugify-accents',
    title: 'slugify(text) turns accented letters into plain ones',
    cases: [['slugify', ['Crème Brûlée à la carte'], 'creme-brulee-a-la-carte']],
  },
  {
    id: 'truncate-words',
    title: 'truncateWords(text, n) keeps the first n words and adds "…" when it cut',
    cases: [
      ['truncateWords', ['the quick brown fox jumps', 3], 'the quick brown…'],
      ['truncateWords', ['short text', 5], 'short text'],
    ],
  },
  {
    id: 'title-case',
    title: 'titleCase(text) capitalises words, except small words after the first',
    cases: [
      ['titleCase', ['the lord of the rings'], 'The Lord of the Rings'],
      ['titleCase', ['a tale of two cities'], 'A Tale of Two Cities'],
    ],
  },
];

async function run(libPath) {
  let lib;
  try {
    lib = await import(pathToFileURL(libPath).href);
  } catch (error) {
    const detail = `lib.mjs does not load: ${error instanceof Error ? error.message : String(error)}`;
    return CHECKS.map(({ id, title }) => ({ id, title, pass: false, detail }));
  }
  return CHECKS.map(({ id, title, cases }) => {
    for (const [name, args, expected] of cases) {
      const call = `${name}(${args.map((arg) => JSON.stringify(arg)).join(', ')})`;
      if (typeof lib[name] !== 'function') {
        return { id, title, pass: false, detail: `lib.mjs does not export ${name}` };
      }
      let actual;
      try {
        actual = lib[name](...args);
      } catch (error) {
        return { id, title, pass: false, detail: `${call} threw ${String(error)}` };
      }
      if (actual !== expected) {
        return {
          id,
          title,
          pass: false,
          detail: `${call} returned ${JSON.stringify(actual)}, expected ${JSON.stringify(expected)}`,
        };
      }
    }
    return { id, title, pass: true, detail: 'ok' };
  });
}

if (process.argv[2]) {
  process.stdout.write(`${JSON.stringify({ results: await run(process.argv[2]) })}\n`);
}
