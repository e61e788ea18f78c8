// The conformance suites run on vitest, an optional peer dependency of @rxagent/core: it is
// loaded here with a dynamic import, so `@rxagent/core/testing` still loads where vitest is
// not installed (a program using ScriptedChatModel, another test runner), and only a call of
// a suite fails there, saying why.

type Vitest = typeof import('vitest');

let vitest: Vitest | undefined;
let missing: unknown;
try {
  vitest = await import('vitest');
} catch (error) {
  missing = error;
}

/** vitest's `describe`, `it`, `expect`, `beforeEach`, `afterEach`; throws when it is not installed. */
export function vitestApi(suite: string): Vitest {
  if (vitest !== undefined) return vitest;
  throw new Error(
    `${suite} runs on vitest, which could not be loaded (${missing instanceof Error ? missing.message : String(missing)}); install vitest (npm i -D vitest) and run the suite with it.`,
    { cause: missing },
  );
}
