import ts from 'typescript';
import type { ApiEntry } from './apiReport.js';

/** An export of a package entry point whose declaration has no TSDoc summary. */
export interface UndocumentedExport {
  readonly specifier: string;
  readonly name: string;
  /** Where it is declared: `path:line`, relative to the repository root. */
  readonly declaredAt: string;
}

/**
 * The exports of `entries` that have no TSDoc summary (the text of the doc comment before its
 * first tag). An export is documented when any of its declarations is (an overloaded function
 * or a merged interface needs one), or, for a re-export, the declaration it aliases.
 */
export function undocumentedExports(
  program: ts.Program,
  entries: readonly ApiEntry[],
  root: string,
): UndocumentedExport[] {
  const checker = program.getTypeChecker();
  const found: UndocumentedExport[] = [];
  for (const entry of entries) {
    const source = program.getSourceFile(entry.file);
    if (!source) throw new Error(`${entry.file} is not in the program.`);
    const moduleSymbol = checker.getSymbolAtLocation(source);
    if (!moduleSymbol) continue;
    for (const exported of checker.getExportsOfModule(moduleSymbol)) {
      const symbol =
        exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      const summary = ts.displayPartsToString(symbol.getDocumentationComment(checker)).trim();
      if (summary !== '') continue;
      const declaration = symbol.declarations?.[0];
      const file = declaration?.getSourceFile();
      const line = file ? file.getLineAndCharacterOfPosition(declaration!.getStart()).line + 1 : 0;
      const path = file ? file.fileName.replace(`${root}/`, '') : '?';
      found.push({
        specifier: entry.specifier,
        name: exported.name,
        declaredAt: `${path}:${line}`,
      });
    }
  }
  return found;
}
