/**
 * Data flows one way (docs/architecture.md): no folder of the product imports a folder that imports it. The folders
 * are the first level under src/core, each route's own folder (core/routes/<route>) counted apart, plus src/vscode.
 * Type-only imports count too: a cycle of types is a cycle of concepts.
 * The ratchets that held the mutual pairs and the one tangle while the one-way layout landed are gone: since
 * 2026-12-02 the folders form no cycle of any length, and a new one fails here.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';

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
