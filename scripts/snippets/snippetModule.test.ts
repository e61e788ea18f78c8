import { describe, expect, it } from 'vitest';
import type { ImportSource } from './exportIndex.js';
import { snippetModule } from './snippetModule.js';

const index = new Map<string, ImportSource>([
  ['userMsg', { specifier: '@rxagent/core', typeOnly: false }],
  ['Msg', { specifier: '@rxagent/core', typeOnly: true }],
  ['lastValueFrom', { specifier: 'rxjs', typeOnly: false }],
  ['agent', { specifier: '../snippetContext.js', typeOnly: false }],
  ['model', { specifier: '../snippetContext.js', typeOnly: false }],
]);
const at = (code: string) => ({ file: 'README.md', line: 10, code, run: false });

describe('snippetModule', () => {
  it('imports for a fragment the names it uses, types with `type`, all on the first line', () => {
    const module = snippetModule(
      at('const msgs: Msg[] = [userMsg("hi")];\nawait lastValueFrom(agent.call(msgs));'),
      index,
    );
    const [first, ...rest] = module.text.split('\n');
    expect(first).toBe(
      "import { type Msg, userMsg } from '@rxagent/core'; import { agent } from '../snippetContext.js'; " +
        "import { lastValueFrom } from 'rxjs'; // README.md:10",
    );
    expect(rest.slice(0, 2)).toEqual([
      'const msgs: Msg[] = [userMsg("hi")];',
      'await lastValueFrom(agent.call(msgs));',
    ]);
    expect(module.codeOffset).toBe(1);
  });

  it('does not import a name the fragment declares at its top level, nor property names', () => {
    const module = snippetModule(at('const model = { agent: 1 };\nmodel.agent;'), index);
    expect(module.imported).toEqual([]);
  });

  it('keeps a block with an import as written (a standalone module)', () => {
    const code = "import { userMsg } from '@rxagent/core';\nconst m = userMsg('x');\nagent;";
    const module = snippetModule(at(code), index);
    expect(module.imported).toEqual([]);
    expect(module.text).toBe(`// README.md:10\n${code}\nexport {};\n`);
  });
});
