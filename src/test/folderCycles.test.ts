/**
 * Data flows one way (docs/architecture.md): no folder of the product imports a folder that imports it. The folders
 * are the first level under src/core, each route's own folder (core/routes/<route>) counted apart, plus src/vscode.
 * Type-only imports count too: a cycle of types is a cycle of concepts.
 * The ratchets that held the mutual pairs and the one tangle while the one-way layout landed are gone: since
 * 2026-12-02 the folders form no cycle of any length, and a new one fails here. Route names (the RouteId strings)
 * are written only where routes live — core/routes (route folders, the registry, route selection) and core/routeId.ts
 * — and a route name used as a route anywhere else in core or vscode fails here with its file:line.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as ts from 'typescript';
import { ROUTE_IDS } from '../core/routeId';

const SRC = path.join(__dirname, '..', '..', 'src');

function productFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return productFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** The folder a product file belongs to, for this rule. */
export function folderOf(file: string): string {
  const rel = path.relative(SRC, file).split(path.sep);
  if (rel[0] !== 'core') return rel[0];
  if (rel.length === 2) return 'core';
  if (rel[1] === 'routes' && rel.length > 3) return `routes/${rel[2]}`;
  return rel[1];
}

/** Folder → the folders it imports (relative imports only; the product imports nothing of the tooling). */
export function folderGraph(files: readonly string[]): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of files) {
    const from = folderOf(file);
    for (const match of fs.readFileSync(file, 'utf8').matchAll(/from '(\.[^']+)'/g)) {
      const target = path.resolve(path.dirname(file), match[1]);
      const to = folderOf(target);
      if (to === from || !target.startsWith(SRC)) continue;
      if (!graph.has(from)) graph.set(from, new Set());
      graph.get(from)?.add(to);
    }
  }
  return graph;
}

function mutualPairs(graph: Map<string, Set<string>>): string[] {
  const pairs: string[] = [];
  for (const [a, targets] of graph) for (const b of targets) if (a < b && graph.get(b)?.has(a)) pairs.push(`${a} <-> ${b}`);
  return pairs.sort();
}

describe('folders import one way', () => {
  const files = [...productFiles(path.join(SRC, 'core')), ...productFiles(path.join(SRC, 'vscode'))];

  it('no two folders import each other', () => {
    assert.deepStrictEqual(mutualPairs(folderGraph(files)), []);
  });

  it('no longer cycle either: no group of folders each reachable from each other', () => {
    assert.deepStrictEqual(cycleGroups(folderGraph(files)), []);
  });

  it('the cycle finder sees a cycle of three (the check can fail)', () => {
    const graph = new Map([['a', new Set(['b'])], ['b', new Set(['c'])], ['c', new Set(['a', 'd'])], ['d', new Set<string>()]]);
    assert.deepStrictEqual(cycleGroups(graph), [['a', 'b', 'c']]);
  });

  it('no route name outside core/routes and core/routeId.ts: a route fact lives with the routes', () => {
    const scanned = files.filter((file) => !ROUTE_NAME_HOMES.some((home) => path.relative(SRC, file).startsWith(home)));
    assert.deepStrictEqual(routeNameUses(scanned), []);
  });

  it('the route-name finder tells a route from a field, a purpose and another vocabulary (the check can fail)', () => {
    const sample = [
      "type RouteId = 'chat' | 'responses' | 'messages' | 'gemini';",
      "type Purpose = 'chat' | 'inline';",
      "const a: RouteId = 'gemini';",
      "const p: Purpose = 'chat';",
      "declare const r: RouteId; if (r === 'messages') r.trim(); switch (r) { case 'chat': break; }",
      "declare const o: { messages: string[] }; export type M = (typeof o)['messages'] | Omit<typeof o, 'messages'>;",
      "const labels = new Map([['chat', 'x'], ['responses', 'y']]);",
      "const keys = new Set(['messages', 'input']);",
      "type Api = 'chat' | 'responses' | undefined;",
      "export { a, p, labels, keys, type Api };",
    ].join('\n');
    assert.deepStrictEqual(routeNameUses([SAMPLE], { [SAMPLE]: sample }), [
      "sample.ts:1 'chat'", "sample.ts:1 'responses'", "sample.ts:1 'messages'", "sample.ts:1 'gemini'",
      "sample.ts:3 'gemini'", "sample.ts:5 'messages'", "sample.ts:5 'chat'", "sample.ts:7 'chat'", "sample.ts:7 'responses'", "sample.ts:9 'chat'", "sample.ts:9 'responses'",
    ]);
  });

  it('core never imports src/vscode', () => {
    const offenders = [...folderGraph(productFiles(path.join(SRC, 'core')))].filter(([, to]) => to.has('vscode')).map(([from]) => from);
    assert.deepStrictEqual(offenders, []);
  });
});

/** The groups of folders on an import cycle (Tarjan's strongly connected components of more than one folder), sorted. */
export function cycleGroups(graph: Map<string, Set<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const groups: string[][] = [];
  const visit = (folder: string): void => {
    index.set(folder, index.size);
    low.set(folder, index.get(folder) as number);
    stack.push(folder);
    for (const next of graph.get(folder) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(folder, Math.min(low.get(folder) as number, low.get(next) as number));
      } else if (stack.includes(next)) low.set(folder, Math.min(low.get(folder) as number, index.get(next) as number));
    }
    if (low.get(folder) !== index.get(folder)) return;
    const group: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop() as string;
      group.push(member);
    } while (member !== folder);
    if (group.length > 1) groups.push(group.sort());
  };
  for (const folder of [...graph.keys()].sort()) if (!index.has(folder)) visit(folder);
  return groups.sort((a, b) => a[0].localeCompare(b[0]));
}

/** Where route names belong: the routes (their folders, the registry, route selection) and the RouteId type itself;
 * the bundled model data names each model's route as data (generated by tools/snapshotUpdate.ts). */
const ROUTE_NAME_HOMES = ['core/routes/', 'core/routeId.ts', 'core/models/data/'];
const SAMPLE = path.join(SRC, 'sample.ts');

/**
 * Each string literal naming a route that is used as a route, as `file:line 'name'`. The type checker decides: a
 * literal typed (or compared, or switched on) as a type holding every route id is a route; one typed as another
 * literal vocabulary (a request purpose, a usage shape, a walkthrough step) is not; a type key (`T['messages']`,
 * `Omit<T, 'messages'>`) is not. Untyped, a literal is a route when its statement names two routes or more (a
 * table or a chain of comparisons by route), not when it stands alone (a field name). A literal type is a route in a
 * union of route names only (the RouteId type spelled out).
 */
export function routeNameUses(files: readonly string[], sources: Readonly<Record<string, string>> = {}): string[] {
  const textOf = (file: string): string => sources[file] ?? fs.readFileSync(file, 'utf8');
  const candidates = files.filter((file) => /['"`](chat|responses|messages|gemini)['"`]/.test(textOf(file)));
  if (!candidates.length) return [];
  const program = programOf(candidates, sources, textOf);
  const checker = program.getTypeChecker();
  const found: { at: string; line: number; column: number; text: string }[] = [];
  for (const file of candidates) {
    const source = program.getSourceFile(file);
    if (!source) continue;
    const untypedByStatement = new Map<ts.Node, ts.StringLiteralLike[]>();
    const report = (node: ts.StringLiteralLike): void => {
      const { line, character } = source.getLineAndCharacterOfPosition(node.getStart());
      found.push({ at: path.relative(SRC, file).split(path.sep).join('/'), line: line + 1, column: character, text: node.text });
    };
    const visit = (node: ts.Node): void => {
      if (ts.isStringLiteralLike(node) && ROUTE_NAMES.has(node.text)) {
        const use = routeUseOf(node, checker);
        if (use === 'route') report(node);
        if (use === 'untyped') untypedByStatement.set(statementOf(node), [...(untypedByStatement.get(statementOf(node)) ?? []), node]);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
    for (const nodes of untypedByStatement.values()) if (new Set(nodes.map((n) => n.text)).size > 1) nodes.forEach(report);
  }
  found.sort((a, b) => a.at.localeCompare(b.at) || a.line - b.line || a.column - b.column);
  return found.map((f) => `${f.at}:${f.line} '${f.text}'`);
}

const ROUTE_NAMES = new Set<string>(ROUTE_IDS);
const EQUALITY = [ts.SyntaxKind.EqualsEqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsEqualsToken, ts.SyntaxKind.EqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsToken];

/**
 * The files and what they import, one step deep (where the types that say what their literals are are declared),
 * checked as the product's own code only: no DOM, no @types, no packages. Deeper imports are left unresolved (any).
 */
function programOf(candidates: readonly string[], sources: Readonly<Record<string, string>>, textOf: (file: string) => string): ts.Program {
  const options: ts.CompilerOptions = { target: ts.ScriptTarget.ES2022, lib: ['lib.es2022.d.ts'], module: ts.ModuleKind.CommonJS, strict: true, noEmit: true, skipLibCheck: true, types: [] };
  const host = ts.createCompilerHost(options);
  const resolve = (name: string, containing: string) => (name.startsWith('.') ? ts.resolveModuleName(name, containing, options, host).resolvedModule : undefined);
  const near = new Set(candidates);
  for (const file of candidates) {
    for (const match of textOf(file).matchAll(/from '(\.[^']+)'/g)) {
      const target = resolve(match[1], file)?.resolvedFileName;
      if (target) near.add(target);
    }
  }
  host.resolveModuleNames = (names, containing) => names.map((name) => {
    const module = resolve(name, containing);
    return module && near.has(module.resolvedFileName) ? module : undefined;
  });
  const { fileExists, getSourceFile } = host;
  host.fileExists = (file) => sources[file] !== undefined || fileExists(file);
  host.getSourceFile = (file, language, ...rest) => (sources[file] !== undefined ? ts.createSourceFile(file, sources[file], language) : getSourceFile(file, language, ...rest));
  return ts.createProgram([...near], options, host);
}

/** What a type says of a literal in it: a route (it holds every route id), another vocabulary, or nothing (string, unknown). */
function kindOf(type: ts.Type | undefined): 'route' | 'other' | 'untyped' {
  const literals = (type?.isUnion() ? type.types : type ? [type] : []).filter((t) => t.isStringLiteral()).map((t) => (t as ts.StringLiteralType).value);
  if (!literals.length) return 'untyped';
  return ROUTE_IDS.every((id) => literals.includes(id)) ? 'route' : 'other';
}

/** A route-name literal: used as a route, as something else (a key, another vocabulary), or untyped. */
function routeUseOf(node: ts.StringLiteralLike, checker: ts.TypeChecker): 'route' | 'other' | 'untyped' {
  const parent = node.parent;
  if (ts.isLiteralTypeNode(parent)) {
    // A route only in a union of route names (undefined and null aside): RouteId spelled out.
    const members = ts.isUnionTypeNode(parent.parent) ? parent.parent.types.filter((t) => t.kind !== ts.SyntaxKind.UndefinedKeyword && !(ts.isLiteralTypeNode(t) && t.literal.kind === ts.SyntaxKind.NullKeyword)) : [];
    return members.every((t) => ts.isLiteralTypeNode(t) && ts.isStringLiteral(t.literal) && ROUTE_NAMES.has(t.literal.text)) && members.length ? 'route' : 'other';
  }
  if ((ts.isElementAccessExpression(parent) && parent.argumentExpression === node) || ts.isImportDeclaration(parent) || ts.isExportDeclaration(parent) || ts.isExternalModuleReference(parent)) return 'other';
  if (ts.isBinaryExpression(parent) && EQUALITY.includes(parent.operatorToken.kind)) return kindOf(checker.getTypeAtLocation(parent.left === node ? parent.right : parent.left));
  if (ts.isCaseClause(parent)) return kindOf(checker.getTypeAtLocation(parent.parent.parent.expression));
  return kindOf(checker.getContextualType(node));
}

/** The statement (or class member) a node is part of. */
function statementOf(node: ts.Node): ts.Node {
  let at = node;
  while (at.parent && !ts.isSourceFile(at.parent) && !ts.isBlock(at.parent) && !ts.isCaseOrDefaultClause(at.parent) && !ts.isClassLike(at.parent)) at = at.parent;
  return at;
}
