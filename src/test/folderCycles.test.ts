/**
 * Data flows one way (docs/architecture.md): no folder of the product imports a folder that imports it. The folders
 * are the first level under src/core, each route's own folder (core/routes/<route>) counted apart, plus src/vscode.
 * Type-only imports count too: a cycle of types is a cycle of concepts.
 *
 * KNOWN_PAIRS lists the mutual imports main still has while the one-way layout lands (issue: one-way shape); the test
 * fails on any pair not listed, and on a listed pair that is gone (so the list only shrinks).
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';

const SRC = path.join(__dirname, '..', '..', 'src');

const KNOWN_PAIRS = [
  'replay <-> trim',
];

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
  const pairs = mutualPairs(folderGraph(files));

  it('no new pair of folders imports each other', () => {
    assert.deepStrictEqual(pairs.filter((p) => !KNOWN_PAIRS.includes(p)), []);
  });

  it('the list of known pairs only shrinks (a pair that is gone leaves the list)', () => {
    assert.deepStrictEqual(KNOWN_PAIRS.filter((p) => !pairs.includes(p)), []);
  });

  it('core never imports src/vscode', () => {
    const offenders = [...folderGraph(productFiles(path.join(SRC, 'core')))].filter(([, to]) => to.has('vscode')).map(([from]) => from);
    assert.deepStrictEqual(offenders, []);
  });
});
