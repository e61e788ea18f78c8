import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import ts from 'typescript';

/** One entry point of a workspace package: its import specifier and its source file. */
export interface ApiEntry {
  readonly specifier: string;
  readonly file: string;
}

/** A package's public entry points, read from its package.json `exports` (`@rxagent/source`). */
export function packageEntries(packageDir: string): ApiEntry[] {
  const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as {
    name: string;
    exports?: Record<string, { '@rxagent/source'?: string }>;
  };
  return Object.entries(manifest.exports ?? {}).flatMap(([subpath, conditions]) => {
    const source = conditions['@rxagent/source'];
    if (source === undefined) return [];
    const specifier = subpath === '.' ? manifest.name : `${manifest.name}/${subpath.slice(2)}`;
    return [{ specifier, file: join(packageDir, source) }];
  });
}

/** The directories of the workspace's packages (`packages/*` with a package.json). */
export function workspacePackages(root: string): string[] {
  const base = join(root, 'packages');
  return readdirSync(base, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => join(base, entry.name))
    .filter((dir) => {
      try {
        readFileSync(join(dir, 'package.json'));
        return true;
      } catch {
        return false;
      }
    })
    .sort();
}

/** A TypeScript program over `files`, compiled with the workspace's options. */
export function createApiProgram(root: string, files: readonly string[]): ts.Program {
  const configPath = join(root, 'tsconfig.base.json');
  const config = ts.readConfigFile(configPath, (path) => ts.sys.readFile(path));
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, dirname(configPath));
  return ts.createProgram([...files], { ...parsed.options, noEmit: true });
}

const FORMAT =
  ts.TypeFormatFlags.NoTruncation |
  ts.TypeFormatFlags.WriteArrowStyleSignature |
  ts.TypeFormatFlags.UseSingleQuotesForStringLiteralType;

/**
 * The public API of one entry point as text: every exported name, sorted, with its kind and
 * signature (functions), members (classes and interfaces, `#private` and `private` left out)
 * or definition (type aliases, constants). Stable across runs, so a diff of it is an API diff.
 */
export function apiReport(program: ts.Program, entry: ApiEntry, root: string): string {
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(entry.file);
  if (!source) throw new Error(`API report: ${entry.file} is not in the program.`);
  const moduleSymbol = checker.getSymbolAtLocation(source);
  if (!moduleSymbol) return `# ${entry.specifier} (${relative(root, entry.file)})\n(no exports)\n`;
  const lines = [`# ${entry.specifier}`];
  const exports = [...checker.getExportsOfModule(moduleSymbol)].sort((a, b) =>
    a.name.localeCompare(b.name),
  );
  for (const exported of exports) lines.push(...describeExport(checker, exported));
  return `${lines.join('\n')}\n`;
}

function describeExport(checker: ts.TypeChecker, exported: ts.Symbol): string[] {
  const symbol =
    exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
  const name = exported.name;
  const out: string[] = [];
  const flags = symbol.flags;
  if (flags & ts.SymbolFlags.Class) out.push(...describeClass(checker, symbol, name));
  else if (flags & ts.SymbolFlags.Function) {
    const type = checker.getTypeOfSymbol(symbol);
    for (const signature of type.getCallSignatures())
      out.push(`function ${name}${checker.signatureToString(signature, undefined, FORMAT)}`);
  } else if (flags & ts.SymbolFlags.Variable) {
    out.push(
      `const ${name}: ${checker.typeToString(checker.getTypeOfSymbol(symbol), undefined, FORMAT)}`,
    );
  }
  if (flags & ts.SymbolFlags.Interface) out.push(...describeInterface(checker, symbol, name));
  if (flags & ts.SymbolFlags.TypeAlias) out.push(describeAlias(symbol, name));
  if (flags & ts.SymbolFlags.Enum) out.push(`enum ${name}`);
  return out.length > 0 ? out : [`unknown ${name}`];
}

function describeClass(checker: ts.TypeChecker, symbol: ts.Symbol, name: string): string[] {
  const declaration = symbol.declarations?.find(ts.isClassDeclaration);
  const heritage = declaration?.heritageClauses?.map((clause) => clause.getText()).join(' ');
  const abstract = declaration?.modifiers?.some((m) => m.kind === ts.SyntaxKind.AbstractKeyword);
  const head = `${abstract ? 'abstract ' : ''}class ${name}${typeParameters(declaration)}${heritage ? ` ${oneLine(heritage)}` : ''}`;
  const staticType = checker.getTypeOfSymbol(symbol);
  const lines = [head];
  for (const signature of staticType.getConstructSignatures()) {
    const params = signature.parameters.map((p) => parameterText(checker, p)).join(', ');
    lines.push(`  constructor(${params})`);
  }
  // Own members only: inherited ones are in the report of the class they come from.
  const own = (member: ts.Symbol): boolean =>
    member.declarations?.some((d) => d.parent === declaration) ?? false;
  for (const member of checker.getPropertiesOfType(staticType)) {
    if (member.name === 'prototype' || !own(member)) continue;
    const text = memberText(checker, member, 'static ');
    if (text) lines.push(text);
  }
  const instanceType = checker.getDeclaredTypeOfSymbol(symbol);
  for (const member of checker.getPropertiesOfType(instanceType)) {
    if (!own(member) && !isParameterProperty(member, declaration)) continue;
    const text = memberText(checker, member, '');
    if (text) lines.push(text);
  }
  return lines;
}

function describeInterface(checker: ts.TypeChecker, symbol: ts.Symbol, name: string): string[] {
  const declaration = symbol.declarations?.find(ts.isInterfaceDeclaration);
  const heritage = declaration?.heritageClauses?.map((clause) => clause.getText()).join(' ');
  const lines = [
    `interface ${name}${typeParameters(declaration)}${heritage ? ` ${oneLine(heritage)}` : ''}`,
  ];
  const type = checker.getDeclaredTypeOfSymbol(symbol);
  for (const member of checker.getPropertiesOfType(type)) {
    // Members inherited from the platform (lib.d.ts, @types/node) are not this API.
    if (member.declarations?.every((d) => d.getSourceFile().isDeclarationFile)) continue;
    const text = memberText(checker, member, '');
    if (text) lines.push(text);
  }
  for (const signature of type.getCallSignatures())
    lines.push(`  ${checker.signatureToString(signature, undefined, FORMAT)}`);
  return lines;
}

function describeAlias(symbol: ts.Symbol, name: string): string {
  const declaration = symbol.declarations?.find(ts.isTypeAliasDeclaration);
  if (!declaration) return `type ${name}`;
  return `type ${name}${typeParameters(declaration)} = ${oneLine(withoutComments(declaration.type.getText()))}`;
}

function memberText(
  checker: ts.TypeChecker,
  member: ts.Symbol,
  prefix: string,
): string | undefined {
  if (member.name.startsWith('#') || member.name.startsWith('__#')) return undefined;
  const declaration = member.valueDeclaration ?? member.declarations?.[0];
  const modifiers = declaration ? ts.getCombinedModifierFlags(declaration) : ts.ModifierFlags.None;
  if (modifiers & ts.ModifierFlags.Private) return undefined;
  const type = checker.getTypeOfSymbol(member);
  const optional = member.flags & ts.SymbolFlags.Optional ? '?' : '';
  const tags = [
    prefix,
    modifiers & ts.ModifierFlags.Protected ? 'protected ' : '',
    modifiers & ts.ModifierFlags.Abstract ? 'abstract ' : '',
    modifiers & ts.ModifierFlags.Readonly ? 'readonly ' : '',
  ].join('');
  if (member.flags & ts.SymbolFlags.Method) {
    return type
      .getCallSignatures()
      .map(
        (signature) =>
          `  ${tags}${member.name}${optional}${checker.signatureToString(signature, undefined, FORMAT)}`,
      )
      .join('\n');
  }
  if (member.flags & ts.SymbolFlags.GetAccessor && !(member.flags & ts.SymbolFlags.SetAccessor)) {
    return `  ${tags}get ${member.name}(): ${checker.typeToString(type, undefined, FORMAT)}`;
  }
  return `  ${tags}${member.name}${optional}: ${checker.typeToString(type, undefined, FORMAT)}`;
}

/** A constructor parameter declared `readonly x` or `public x` is a member of the class. */
function isParameterProperty(
  member: ts.Symbol,
  declaration: ts.ClassDeclaration | undefined,
): boolean {
  return (
    member.declarations?.some(
      (d) =>
        ts.isParameter(d) &&
        ts.isConstructorDeclaration(d.parent) &&
        d.parent.parent === declaration,
    ) ?? false
  );
}

function parameterText(checker: ts.TypeChecker, parameter: ts.Symbol): string {
  const declaration = parameter.valueDeclaration;
  const optional =
    declaration &&
    ts.isParameter(declaration) &&
    (declaration.questionToken || declaration.initializer)
      ? '?'
      : '';
  const type = checker.getTypeOfSymbol(parameter);
  return `${parameter.name}${optional}: ${checker.typeToString(type, undefined, FORMAT)}`;
}

function typeParameters(
  declaration: ts.ClassDeclaration | ts.InterfaceDeclaration | ts.TypeAliasDeclaration | undefined,
): string {
  const params = declaration?.typeParameters;
  return params ? `<${params.map((p) => oneLine(p.getText())).join(', ')}>` : '';
}

function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/[^\n]*/g, '');
}

function oneLine(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .replace(/\s*;\s*}/g, ' }')
    .trim();
}
