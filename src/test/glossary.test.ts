/**
 * docs/glossary.md stays true: every identifier its tables name for a term exists in the code, every file it
 * names exists, and the names this project retired for a second meaning of a word do not come back.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';

const root = path.join(__dirname, '..', '..');
const src = path.join(root, 'src');

/** Names retired because their word meant something else (docs/glossary.md, "Renamed"). */
const RETIRED = [
  'ModelReasoning', 'offeredReasoning', 'reasoningOf', 'reasoningModel', 'reasoningOn',
  'unsupportedParamOf', 'validDroppedParams', 'MAX_DROPPED_PARAMS', 'dropRefusedParam',
  'HistoryLayout', 'layoutHistory', 'StreamSummary', 'entryFor', 'entryOf', 'MODEL_LIST_SESSION',
];

function tsFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return tsFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** The backticked names in the last column of each term row, with the term (contract and editor tables left out). */
export function glossaryNames(markdown: string): { term: string; name: string }[] {
  const out: { term: string; name: string }[] = [];
  let section = '';
  for (const line of markdown.split('\n')) {
    if (line.startsWith('## ')) section = line;
    if (!line.startsWith('| **') || /Contracts|Editor/.test(section)) continue;
    const cells = line.trim().replace(/^\||\|$/g, '').split('|').map((cell) => cell.trim());
    for (const [, name] of cells[cells.length - 1].matchAll(/`([^`]+)`/g)) out.push({ term: cells[0], name });
  }
  return out;
}

function hasWord(text: string, word: string): boolean {
  return new RegExp(`\\b${word.replace(/\$/g, '\\$')}\\b`).test(text);
}

describe('the glossary matches the code', () => {
  const files = tsFiles(src);
  const product = files.filter((file) => !file.startsWith(path.join(src, 'test') + path.sep)).map((file) => fs.readFileSync(file, 'utf8')).join('\n');
  const names = glossaryNames(fs.readFileSync(path.join(root, 'docs', 'glossary.md'), 'utf8'));

  it('every identifier and file a term names exists outside the tests', () => {
    assert.ok(names.length > 50, `only ${names.length} names read: the table format changed`);
    const missing: string[] = [];
    for (const { term, name } of names) {
      if (name.endsWith('.ts')) {
        if (!files.some((file) => file.endsWith(path.sep + name.split('/').join(path.sep)))) missing.push(`${term}: file ${name}`);
      } else if (/^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*(\(\))?$/.test(name)) {
        for (const part of name.replace('()', '').split('.')) if (!hasWord(product, part)) missing.push(`${term}: ${name}`);
      }
    }
    assert.deepStrictEqual(missing, []);
  });

  it('a retired name is found nowhere in src, tests included (this file lists them)', () => {
    const found = files.filter((file) => path.basename(file) !== 'glossary.test.ts').flatMap((file) => {
      const text = fs.readFileSync(file, 'utf8');
      return RETIRED.filter((name) => hasWord(text, name)).map((name) => `${path.relative(root, file)}: ${name}`);
    });
    assert.deepStrictEqual(found, []);
  });

  it('the checks can fail: a made-up identifier and a retired one are caught', () => {
    const fake = glossaryNames('## Terms\n| Term | Meaning | Identifier |\n|---|---|---|\n| **x** | y | `NoSuchThing.field`, `history/none.ts` |\n');
    assert.deepStrictEqual(fake.map((n) => n.name), ['NoSuchThing.field', 'history/none.ts']);
    assert.strictEqual(hasWord(product, 'NoSuchThing'), false);
    assert.strictEqual(hasWord('const x: StreamSummary = y;', 'StreamSummary'), true);
    assert.strictEqual(hasWord('const x: StreamSummaryish = y;', 'StreamSummary'), false);
  });
});
