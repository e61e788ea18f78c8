import { readFileSync } from 'node:fs';
import ts from 'typescript';

/** Where a fragment imports a name from. */
export interface ImportSource {
  readonly specifier: string;
  /** Imported with `type` (it names only a type). */
  readonly typeOnly: boolean;
  /** A default import (`import OpenAI from 'openai'`). */
  readonly isDefault?: boolean;
}

/** The names a module exports, read from its source without type-checking. */
export function exportedNames(file: string): Map<string, boolean> {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2023);
  const names = new Map<string, boolean>();
  const isExported = (node: ts.Node): boolean =>
    ts.canHaveModifiers(node) &&
    (ts.getModifiers(node)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword) ?? false);
  for (const statement of source.statements) {
    if (ts.isExportDeclaration(statement) && statement.exportClause) {
      if (!ts.isNamedExports(statement.exportClause)) continue;
      for (const element of statement.exportClause.elements) {
        names.set(element.name.text, statement.isTypeOnly || element.isTypeOnly);
      }
    } else if (isExported(statement)) {
      const typeOnly = ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement);
      if (ts.isVariableStatement(statement)) {
        for (const declaration of statement.declarationList.declarations) {
          if (ts.isIdentifier(declaration.name)) names.set(declaration.name.text, false);
        }
      } else if (
        (ts.isFunctionDeclaration(statement) ||
          ts.isClassDeclaration(statement) ||
          ts.isInterfaceDeclaration(statement) ||
          ts.isTypeAliasDeclaration(statement) ||
          ts.isEnumDeclaration(statement)) &&
        statement.name
      ) {
        names.set(statement.name.text, typeOnly);
      }
    }
  }
  return names;
}

/**
 * Adds `names` (name → type-only) from `specifier` to `index`, keeping names already there:
 * the first module to export a name is where fragments import it from.
 */
export function addExports(
  index: Map<string, ImportSource>,
  specifier: string,
  names: ReadonlyMap<string, boolean> | readonly string[],
): void {
  const entries: [string, boolean][] = Array.isArray(names)
    ? (names as readonly string[]).map((name) => [name, false])
    : [...(names as ReadonlyMap<string, boolean>)];
  for (const [name, typeOnly] of entries) {
    if (!index.has(name)) index.set(name, { specifier, typeOnly });
  }
}
