/**
 * The session report page, checked as markup for any data (fast-check: random names with markup in them,
 * random records, quota states, what-if, notices, recordings, routes):
 * - keyboard: every interactive element is a native control (button / input / summary) with a label or
 *   text, no positive or negative tabindex, no inline handlers, no ARIA widgets on plain elements, and the
 *   page's script only binds ids the page has;
 * - CSP: one meta policy first in the head, a nonce on every style and script, nothing remote or unsafe;
 * - colours only through the theme's CSS variables: no literal colour in the style block, no style or
 *   presentational colour attributes.
 */
import * as assert from 'assert';
import fc from 'fast-check';
import type { Quota } from '../core/quota/goUsage';
import type { ReportData, WhatIf } from '../core/report/reportData';
import { reportHtml, type ReportPage } from '../core/report/reportHtml';
import type { RequestRecord } from '../core/report/requestLog';
import { runs } from './support/propertyRuns';

interface Tag {
  name: string;
  closing: boolean;
  attrs: Map<string, string>;
  start: number;
  end: number;
}

/** The tags of the page outside <style> and <script> bodies (their text is not markup). */
function scan(html: string): Tag[] {
  const tags: Tag[] = [];
  const re = /<(\/?)([a-zA-Z][\w-]*)((?:\s+[\w:-]+(?:="[^"]*")?)*)\s*\/?>/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(html))) {
    const attrs = new Map<string, string>();
    for (const a of m[3].matchAll(/([\w:-]+)(?:="([^"]*)")?/g)) attrs.set(a[1].toLowerCase(), a[2] ?? '');
    const tag = { name: m[2].toLowerCase(), closing: m[1] === '/', attrs, start: m.index, end: re.lastIndex };
    tags.push(tag);
    if (!tag.closing && (tag.name === 'style' || tag.name === 'script')) re.lastIndex = html.indexOf(`</${tag.name}>`, re.lastIndex);
  }
  return tags;
}

const textOf = (html: string): string => html.replace(/<[^>]*>/g, '').replace(/&#\d+;/g, 'x').trim();

/** The text between an opening tag and its closing tag (no nesting of the same name in this page). */
function innerText(html: string, open: Tag): string {
  return textOf(html.slice(open.end, html.indexOf(`</${open.name}>`, open.end)));
}

function labelOf(html: string, tags: Tag[], input: Tag): string {
  const aria = input.attrs.get('aria-label');
  if (aria) return aria;
  const id = input.attrs.get('id');
  const byFor = id && tags.find((t) => t.name === 'label' && !t.closing && t.attrs.get('for') === id);
  if (byFor) return innerText(html, byFor);
  const before = tags.filter((t) => t.name === 'label' && t.end <= input.start);
  const last = before[before.length - 1];
  return last && !last.closing ? innerText(html, last) : '';
}

const ALLOWED_TAGS = new Set([
  'html', 'head', 'meta', 'title', 'style', 'body', 'h1', 'h2', 'p', 'code', 'svg', 'line', 'text', 'g', 'rect', 'path', 'polyline', 'i', 'span',
  'table', 'caption', 'tr', 'th', 'td', 'form', 'fieldset', 'legend', 'label', 'input', 'button', 'meter', 'strong', 'details', 'summary', 'script',
]);
const INTERACTIVE = new Set(['a', 'button', 'input', 'select', 'textarea', 'summary']);
const WIDGET_ROLES = /^(button|link|checkbox|radio|slider|spinbutton|switch|tab|menuitem|option|textbox|combobox)$/;
const COLOUR_PROPS = /^(color|background|background-color|border|border-color|border-(top|right|bottom|left)(-color)?|outline|outline-color|fill|stroke|box-shadow|caret-color|text-decoration-color)$/;
const NEUTRAL = /^(none|transparent|inherit|currentcolor|0|\d+(\.\d+)?(px|em)?|solid|dashed|dotted)$/i;

function checkKeyboard(html: string, tags: Tag[]): void {
  for (const tag of tags.filter((t) => !t.closing)) {
    assert.ok(ALLOWED_TAGS.has(tag.name), `unexpected element <${tag.name}>`);
    for (const [name, value] of tag.attrs) {
      assert.ok(!name.startsWith('on'), `inline handler ${name} on <${tag.name}>`);
      if (name === 'tabindex') assert.strictEqual(value, '0', `tabindex ${value} on <${tag.name}>`);
      if (name === 'role') assert.ok(!WIDGET_ROLES.test(value) || INTERACTIVE.has(tag.name), `role=${value} on a plain <${tag.name}>: use a native control`);
    }
    if (tag.name === 'input') {
      assert.ok(tag.attrs.get('type'), 'input without a type');
      assert.ok(labelOf(html, tags, tag).length > 0, `input #${tag.attrs.get('id')} has no label`);
    }
    if (tag.name === 'button') {
      assert.ok(['button', 'submit'].includes(tag.attrs.get('type') ?? ''), 'button without an explicit type');
      assert.ok(innerText(html, tag).length > 0 || tag.attrs.get('aria-label'), 'button without text');
    }
    if (tag.name === 'details') assert.ok(html.slice(tag.end).trimStart().startsWith('<summary>'), 'details without a summary first');
    if (tag.name === 'svg') assert.ok(tag.attrs.get('role') === 'img' && (tag.attrs.get('aria-label') ?? '').length > 10, 'the chart has no accessible name');
  }
  const ids = new Set(tags.map((t) => t.attrs.get('id')).filter(Boolean));
  const script = html.slice(html.indexOf('<script'), html.indexOf('</script>'));
  for (const [, id] of script.matchAll(/getElementById\('([^']+)'\)/g)) assert.ok(ids.has(id), `the script binds #${id}, which the page lacks`);
  // The control pressed gets the focus back after the page is replaced by the answer.
  const refocused = [...script.matchAll(/focus:'([^']+)'/g)].map((m) => m[1]);
  assert.deepStrictEqual(refocused.sort(), ['apply', 'replay']);
  for (const id of refocused) assert.ok(ids.has(id), `focus returns to #${id}, which the page lacks`);
  assert.strictEqual(tags.filter((t) => !t.closing && t.attrs.has('id')).length, ids.size, 'ids are unique');
}

function checkCsp(html: string, tags: Tag[], nonce: string): void {
  const metas = tags.filter((t) => t.name === 'meta' && t.attrs.get('http-equiv')?.toLowerCase() === 'content-security-policy');
  assert.strictEqual(metas.length, 1, 'one CSP meta');
  const first = tags.find((t) => ['style', 'script', 'link', 'img', 'svg'].includes(t.name));
  assert.ok(first && metas[0].start < first.start, 'the policy comes before any resource');
  const directives = new Map((metas[0].attrs.get('content') ?? '').split(';').map((d) => d.trim()).filter(Boolean).map((d): [string, string[]] => {
    const [name, ...sources] = d.split(/\s+/);
    return [name, sources];
  }));
  assert.deepStrictEqual(directives.get('default-src'), ["'none'"]);
  assert.deepStrictEqual(directives.get('script-src'), [`'nonce-${nonce}'`]);
  assert.deepStrictEqual(directives.get('style-src'), [`'nonce-${nonce}'`]);
  for (const [name, sources] of directives) {
    for (const source of sources) {
      assert.ok(/^('none'|'nonce-[A-Za-z0-9+/=]+'|data:)$/.test(source), `${name} allows ${source}`);
    }
  }
  for (const tag of tags.filter((t) => !t.closing && (t.name === 'script' || t.name === 'style'))) {
    assert.strictEqual(tag.attrs.get('nonce'), nonce, `<${tag.name}> without the nonce`);
    assert.ok(!tag.attrs.has('src'), 'no script file');
  }
  for (const tag of tags) {
    for (const [name, value] of tag.attrs) {
      // The nonce is base64 (it may start with '//'); it is checked against the CSP above, not as a URL.
      if (name === 'xmlns' || name === 'nonce') continue;
      assert.ok(!/^\s*(https?:|\/\/|javascript:)/i.test(value), `${name}="${value}" on <${tag.name}> is remote`);
    }
  }
  assert.ok(!/url\(/i.test(html) && !/@import/i.test(html), 'no CSS url() or @import');
}

function checkColours(html: string, tags: Tag[]): void {
  const style = html.slice(html.indexOf('>', html.indexOf('<style')) + 1, html.indexOf('</style>'));
  assert.ok(!/#[0-9a-f]{3,8}\b/i.test(style) && !/\b(rgba?|hsla?|hwb|lab|lch|oklch)\(/i.test(style), 'a literal colour in the style block');
  for (const [, prop, value] of style.matchAll(/([a-z-]+)\s*:\s*([^;}]+)/g)) {
    if (!COLOUR_PROPS.test(prop)) continue;
    const withoutVars = value.replace(/var\(--vscode-[\w-]+(,[^)]*)?\)/g, '').trim();
    for (const word of withoutVars.split(/\s+/).filter(Boolean)) assert.ok(NEUTRAL.test(word), `${prop}: ${value} names a colour (${word})`);
  }
  for (const [, fallback] of style.matchAll(/var\(--vscode-[\w-]+,([^)]*)\)/g)) assert.ok(NEUTRAL.test(fallback.trim()), `fallback ${fallback}`);
  for (const tag of tags) {
    for (const name of ['style', 'fill', 'stroke', 'color', 'bgcolor']) assert.ok(!tag.attrs.has(name), `${name}= on <${tag.name}>`);
  }
}

const text = fc.string({ unit: fc.constantFrom('a', 'Z', '<', '>', '"', "'", '&', '/', ' ', 'é', 's', 'c', 'r', 'i', 'p', 't'), maxLength: 30 });
const recordArb = fc.record({
  promptTokens: fc.nat(2_000_000), hit: fc.double({ min: 0, max: 1, noNaN: true }), completionTokens: fc.nat(50_000), cutMoved: fc.boolean(), removed: fc.nat(40),
  overCeiling: fc.boolean(), budget: fc.oneof(fc.constant(Infinity), fc.integer({ min: 1_000, max: 1_000_000 })), route: fc.option(fc.oneof(fc.constantFrom('chat', 'responses', 'messages', 'gemini'), text), { nil: undefined }),
}).map(({ hit, ...r }): RequestRecord => ({
  at: 0, modelId: 'm', sessionId: 's', ...r, cachedTokens: Math.floor(r.promptTokens * hit), cacheHit: hit, contextWindow: 8_192, reserve: 2_048, maxBytes: 524_288,
  headroom: 600, cutStep: 600, ceiling: 5_000, lowWater: 3_800, inputCount: 9, estTokens: 100, factor: 1,
}));
const summary = { requests: 3, cutMoves: 1, meanHit: 0.8, meanKept: 4_000, coldTokens: 900, cachedTokens: 8_000 };
const side = { headroom: 600, step: 600, summary, steps: [], cost: 1_700 };
const quotaArb: fc.Arbitrary<Quota | undefined> = fc.oneof(
  fc.constant(undefined),
  text.map((reason): Quota => ({ state: 'unknown', reason, at: 0 })),
  fc.tuple(fc.double({ min: 0, max: 100, noNaN: true }), fc.constantFrom('ok', 'rate-limited', 'unknown') as fc.Arbitrary<'ok' | 'rate-limited' | 'unknown'>, text)
    .map(([percent, status, resetsAt]): Quota => ({ state: 'known', at: 0, windows: [{ name: 'rolling', status, percent, resetsAt }, { name: 'weekly', status: 'ok', percent: 10 }] })),
);
const pageArb = fc.record({
  modelId: text, sessionId: text, records: fc.array(recordArb, { maxLength: 12 }), quota: quotaArb, notice: fc.option(text, { nil: undefined }),
  recordedFile: fc.option(text, { nil: undefined }), whatIf: fc.boolean(), nonce: fc.base64String({ minLength: 24, maxLength: 24 }),
  chosen: fc.record({ headroom: fc.nat(1_000_000), step: fc.nat(1_000_000) }),
}).map((p): ReportPage => {
  const totals = { requests: p.records.length, promptTokens: 0, coldTokens: 0, cachedTokens: 0, completionTokens: 0, cutMoves: 0, meanHit: 0, overCeiling: 0 };
  const costs = [{ id: 'ours' as const, label: 'this extension', summary, cost: 1_700, relative: 0.5, overBudget: 0 }];
  const data: ReportData = { sessionId: p.sessionId, modelId: p.modelId, records: p.records, totals, observedCost: 0, cachedPrice: 0.1, dollars: { unpriced: 0, cacheSaved: 0.5, warming: { requests: 1, costUsd: 0.01 } }, priced: true, costs, ...(p.recordedFile ? { recordedFile: p.recordedFile } : {}) };
  const whatIf: WhatIf | undefined = p.whatIf ? { current: side, chosen: side } : undefined;
  return { data, whatIf, quota: p.quota, chosen: p.chosen, notice: p.notice, nonce: p.nonce };
});

describe('report page: keyboard, CSP and theme colours (any data)', () => {
  it('every interactive element is a labelled native control, the policy is strict, colours come from the theme', () => {
    fc.assert(fc.property(pageArb, (page) => {
      const html = reportHtml(page);
      const tags = scan(html);
      checkKeyboard(html, tags);
      checkCsp(html, tags, page.nonce);
      checkColours(html, tags);
      assert.strictEqual(tags.filter((t) => t.name === 'script' && !t.closing).length, 1, 'one script, the page\'s own');
    }), { numRuns: runs(150) });
  });

  it('the checks catch what they are for', () => {
    const [page] = fc.sample(pageArb, { numRuns: 1, seed: 7 });
    const html = reportHtml(page);
    const broken: [string, string, (h: string, t: Tag[]) => void][] = [
      ['unlabelled input', html.replace(/<label>headroom tokens (<input[^>]*>)<\/label>/, '$1'), checkKeyboard],
      ['div button', html.replace('<h1>', '<h1 role="button">'), checkKeyboard],
      ['negative tabindex', html.replace('<summary>', '<summary tabindex="-1">'), checkKeyboard],
      ['remote script', html.replace(`script-src 'nonce-${page.nonce}'`, `script-src 'nonce-${page.nonce}' https://cdn.example`), (h, t) => checkCsp(h, t, page.nonce)],
      ['inline style', html.replace('<h1>', '<h1 style="color:red">'), checkColours],
      ['hex colour', html.replace('.note{color:var(--vscode-descriptionForeground)}', '.note{color:#777}'), checkColours],
      ['named colour', html.replace('border:none', 'border:1px solid red'), checkColours],
    ];
    for (const [what, bad, check] of broken) {
      assert.notStrictEqual(bad, html, `${what}: the mutation applied`);
      assert.throws(() => check(bad, scan(bad)), assert.AssertionError, what);
    }
  });
});
