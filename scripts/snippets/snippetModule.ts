import ts from 'typescript';
import type { ImportSource } from './exportIndex.js';
import type { Snippet } from './extractSnippets.js';

/** A snippet as a module file: its text, and where its code starts in that text. */
export interface SnippetModule {
  readonly text: string;
  /** Line `n` of the snippet's code is line `n + codeOffset` of `text`. */
  readonly codeOffset: number;
  /** The names imported for a fragment. */
  readonly imported: readonly string[];
}

/**
 * Turns a snippet into a module. A block with an `import` is standalone and kept as written.
 * A block without one is a fragment: every name it uses but does not declare at its top
 * level, and that `index` knows (the packages' exports, RxJS, `z`, the snippet context's
 * `agent`, `model` …), is imported for it on one first line, so line numbers map 1:1.
 */
export function snippetModule(
  snippet: Snippet,
  index: ReadonlyMap<string, ImportSource>,
): SnippetModule {
  const source = ts.createSourceFile('snippet.ts', snippet.code, ts.ScriptTarget.ES2023, true);
  const header = `// ${snippet.file}:${snippet.line}`;
  const body = `${snippet.code}\nexport {};\n`;
  if (source.statements.some(ts.isImportDeclaration)) {
    return { text: `${header}\n${body}`, codeOffset: 1, imported: [] };
  }
  const declared = topLevelNames(source);
  const imported = [...usedNames(source)].filter((name) => !declared.has(name) && index.has(name));
  const bySpecifier = new Map<string, string[]>();
  const defaults: string[] = [];
  for (const name of imported.sort()) {
    const from = index.get(name) as ImportSource;
    if (from.isDefault) {
      defaults.push(`import ${name} from '${from.specifier}';`);
      continue;
    }
    const list = bySpecifier.get(from.specifier) ?? [];
    list.push(from.typeOnly ? `type ${name}` : name);
    bySpecifier.set(from.specifier, list);
  }
  const imports = [
    ...defaults,
    ...[...bySpecifier].map(([from, names]) => `import { ${names.join(', ')} } from '${from}';`),
  ];
  return { text: `${[...imports, header].join(' ')}\n${body}`, codeOffset: 1, imported };
}

/** Identifiers that may refer to a binding (not property names after `.` or before `:`). */
function usedNames(source: ts.SourceFile): Set<string> {
  const names = new Set<string>();
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node) && !isPropertyName(node)) names.add(node.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return names;
}

function isPropertyName(node: ts.Identifier): boolean {
  const parent = node.parent;
  return (
    (ts.isPropertyAccessExpression(parent) && parent.name === node) ||
    (ts.isPropertyAssignment(parent) && parent.name === node) ||
    (ts.isPropertySignature(parent) && parent.name === node) ||
    (ts.isPropertyDeclaration(parent) && parent.name === node) ||
    (ts.isMethodDeclaration(parent) && parent.name === node) ||
    (ts.isQualifiedName(parent) && parent.right === node)
  );
}

/** The names a block declares at its top level (they shadow imports of the same name). */
function topLevelNames(source: ts.SourceFile): Set<string> {
  const names = new Set<string>();
  const addBinding = (name: ts.BindingName): void => {
    if (ts.isIdentifier(name)) names.add(name.text);
    else
      for (const element of name.elements)
        if (!ts.isOmittedExpression(element)) addBinding(element.name);
  };
  for (const statement of source.statements) {
    if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations)
        addBinding(declaration.name);
    } else if (
      (ts.isFunctionDeclaration(statement) ||
        ts.isClassDeclaration(statement) ||
        ts.isInterfaceDeclaration(statement) ||
        ts.isTypeAliasDeclaration(statement) ||
        ts.isEnumDeclaration(statement)) &&
      statement.name
    ) {
      names.add(statement.name.text);
    }
  }
  return names;
}
