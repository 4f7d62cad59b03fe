/** Inline suggestions, the vscode-free part: the prompt (stable start), the answer cleaner, debounce and cancellation. */
import * as assert from 'assert';
import * as fc from 'fast-check';
import { cleanSuggestion } from '../core/inline/inlineAnswer';
import { ANCHOR_LINES, buildInlinePrompt, CURSOR, INLINE_INSTRUCTIONS, type InlineDocument } from '../core/inline/inlinePrompt';
import { inlineLogLine } from '../core/inline/inlineLog';
import { InlineScheduler } from '../core/inline/inlineScheduler';
import { linesOfText } from '../core/inline/inlineWindow';
import { FakeTimers, flush } from './support/fakeTimers';
import { runs } from './support/propertyRuns';

const lines = (n: number, tag = 'line'): string => Array.from({ length: n }, (_, i) => `const ${tag}${i} = ${i};`).join('\n');
const doc = (text: string, path = 'src/a.ts'): InlineDocument => ({ path, languageId: 'typescript', lines: linesOfText(text) });
/** The cursor at an offset of the text, as VS Code's Position. */
const at = (text: string, offset: number) => ({ line: text.slice(0, offset).split('\n').length - 1, character: offset - text.lastIndexOf('\n', offset - 1) - 1 });
const textOf = (p: ReturnType<typeof buildInlinePrompt>, i: number): string => (p.messages[i].parts[0] as { text: string }).text;

describe('inline suggestions: the prompt', () => {
  it('stable part first (instructions, neighbours in path order, file path, the file up to the anchor), the cursor and suffix last', () => {
    const text = `${lines(40)}\nfunction f() {\n  return \n}\n`;
    const offset = text.indexOf('return ') + 'return '.length;
    const prompt = buildInlinePrompt({ document: doc(text), cursor: at(text, offset), neighbours: [doc('export const z = 1;', 'src/z.ts'), doc('export const b = 2;', 'src/b.ts')] });
    assert.deepStrictEqual(prompt.messages.map((m) => m.role), ['system', 'user', 'assistant', 'user']);
    assert.strictEqual(textOf(prompt, 0), INLINE_INSTRUCTIONS);
    const system = textOf(prompt, 1);
    assert.ok(system.indexOf('src/b.ts') < system.indexOf('src/z.ts'), 'neighbours in path order');
    assert.ok(system.includes('File: src/a.ts (typescript)'));
    assert.ok(system.endsWith(`${lines(ANCHOR_LINES)}\n`), 'the head ends at the anchor line');
    const user = textOf(prompt, 3);
    assert.ok(user.includes(`  return ${CURSOR}\n}\n`));
    assert.strictEqual(prompt.linePrefix, '  return ');
    assert.strictEqual(prompt.suffix, '\n}\n');
  });

  it('property: editing anywhere below the anchor (typing at the cursor, changing the suffix) never changes the stable part', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 200 }), fc.integer({ min: 0, max: 200 }), fc.string({ maxLength: 40 }), fc.string({ maxLength: 80 }), (headLines, extra, typed, suffixEdit) => {
      const text = `${lines(headLines)}\n${lines(extra, 'x')}\n`;
      const cursorLine = headLines + Math.floor(extra / 2);
      const offset = text.split('\n').slice(0, cursorLine).join('\n').length;
      const before = buildInlinePrompt({ document: doc(text), cursor: at(text, offset) });
      // The user types at the cursor and edits the text after it: the anchor stays while the cursor line's block does.
      const edited = text.slice(0, offset) + typed.replace(/\n/g, ' ') + text.slice(offset) + suffixEdit;
      const after = buildInlinePrompt({ document: doc(edited), cursor: at(edited, offset + typed.replace(/\n/g, ' ').length) });
      assert.strictEqual(after.stable, before.stable);
      assert.deepStrictEqual(after.messages.slice(0, 3), before.messages.slice(0, 3));
    }), { numRuns: runs(150) });
  });

  it('a long file: the head keeps the lines nearest the anchor and says how many came before; the same cut for the same head', () => {
    const text = `${lines(2_000)}\n`;
    const offset = text.length;
    const budget = { headTokens: 500, neighbourTokens: 0, suffixTokens: 100, nearTokens: 300 };
    const prompt = buildInlinePrompt({ document: doc(text), cursor: at(text, offset), budget });
    const match = /\[the first (\d+) lines are left out\]/.exec(prompt.stable);
    assert.ok(match);
    const anchor = Math.floor(2_000 / ANCHOR_LINES) * ANCHOR_LINES;
    assert.ok(prompt.stable.endsWith(`const line${anchor - 1} = ${anchor - 1};\n`), 'the head ends right above the anchor');
    assert.ok(prompt.stable.includes(`\nconst line${Number(match[1])} = ${Number(match[1])};\n`), 'and starts at the first line not left out');
    assert.ok(!prompt.stable.includes(`const line${Number(match[1]) - 1} =`));
    assert.strictEqual(buildInlinePrompt({ document: doc(text), cursor: at(text, offset), budget }).stable, prompt.stable);
  });
});

describe('inline suggestions: the answer', () => {
  it('drops code fences, an echo of the line before the cursor, and what the suffix already has', () => {
    assert.strictEqual(cleanSuggestion('```ts\nfoo(1, 2);\n```', '', ''), 'foo(1, 2);');
    assert.strictEqual(cleanSuggestion('  return a + b;', '  return ', ''), 'a + b;');
    assert.strictEqual(cleanSuggestion('a, b)', 'f(', ')\n'), 'a, b');
    assert.strictEqual(cleanSuggestion(Array.from({ length: 30 }, (_, i) => `l${i}`).join('\n'), '', '').split('\n').length, 12);
    assert.strictEqual(cleanSuggestion('  \n', '', ''), '');
  });
});

describe('inline suggestions: debounce and cancellation (fake timers)', () => {
  const options = { debounceMs: 300, maxLatencyMs: 2_000 };

  it('waits for the quiet time, then runs once and reports the latency', async () => {
    const timers = new FakeTimers();
    const scheduler = new InlineScheduler(timers);
    let calls = 0;
    const result = scheduler.schedule(async () => ++calls, options);
    await timers.advance(299);
    assert.strictEqual(calls, 0, 'not before the quiet time');
    await timers.advance(1);
    assert.deepStrictEqual(await result, { kind: 'done', value: 1, latencyMs: 0 });
    assert.strictEqual(timers.pending, 0, 'no timer left behind');
  });

  it('typing on: each keystroke replaces the waiting request, only the last one is sent', async () => {
    const timers = new FakeTimers();
    const scheduler = new InlineScheduler(timers);
    const sent: number[] = [];
    const results = [1, 2, 3].map((n) => {
      const r = scheduler.schedule(async () => sent.push(n), options);
      return r;
    });
    await timers.advance(300);
    assert.deepStrictEqual(sent, [3]);
    assert.deepStrictEqual((await Promise.all(results)).map((r) => r.kind), ['skipped', 'skipped', 'done']);
  });

  it('a request in flight is stopped (its signal aborted) by the editor cancelling or by a newer keystroke', async () => {
    const timers = new FakeTimers();
    const scheduler = new InlineScheduler(timers);
    const signals: AbortSignal[] = [];
    const never = (signal: AbortSignal) => new Promise<string>((_, reject) => { signals.push(signal); signal.addEventListener('abort', () => reject(new Error('aborted'))); });
    const editor = new AbortController();
    const first = scheduler.schedule(never, { ...options, signal: editor.signal });
    await timers.advance(300);
    await timers.advance(50);
    editor.abort();
    assert.deepStrictEqual(await first, { kind: 'cancelled', latencyMs: 50 });
    assert.strictEqual(signals[0].aborted, true);

    const second = scheduler.schedule(never, options);
    await timers.advance(400);
    const third = scheduler.schedule(async () => 'ok', options);
    assert.strictEqual((await second).kind, 'cancelled');
    assert.strictEqual(signals[1].aborted, true);
    await timers.advance(300);
    assert.strictEqual((await third).kind, 'done');
  });

  it('over the latency budget: stopped and reported as a timeout; a failure is reported as one', async () => {
    const timers = new FakeTimers();
    const scheduler = new InlineScheduler(timers);
    let aborted = false;
    const slow = scheduler.schedule((signal) => new Promise<string>(() => signal.addEventListener('abort', () => (aborted = true))), options);
    await timers.advance(300 + 2_000);
    assert.deepStrictEqual(await slow, { kind: 'timeout', latencyMs: 2_000 });
    assert.ok(aborted);
    const failing = scheduler.schedule(async () => { throw new Error('401 no key'); }, options);
    await timers.advance(300);
    await flush();
    const failed = await failing;
    assert.strictEqual(failed.kind, 'failed');
    assert.match(inlineLogLine('m', failed as never) ?? '', /^\[inline\] m: failed after 0 ms \(401 no key\)\.$/);
  });

  it('the document changed during the quiet time: nothing is built or sent (skipped); a throw while building is a failure', async () => {
    const timers = new FakeTimers();
    const scheduler = new InlineScheduler(timers);
    let version = 1;
    let calls = 0;
    const stale = scheduler.schedule(async () => ++calls, { ...options, current: () => version === 1 });
    version = 2;
    await timers.advance(300);
    assert.deepStrictEqual(await stale, { kind: 'skipped' });
    assert.strictEqual(calls, 0);
    const throwing = scheduler.schedule(() => { throw new Error('bad document'); }, options);
    await timers.advance(300);
    const failed = await throwing;
    assert.strictEqual(failed.kind, 'failed');
    assert.strictEqual(timers.pending, 0);
  });

  it('an editor token already cancelled: nothing is scheduled', async () => {
    const timers = new FakeTimers();
    const editor = new AbortController();
    editor.abort();
    const result = await new InlineScheduler(timers).schedule(async () => 1, { ...options, signal: editor.signal });
    assert.deepStrictEqual(result, { kind: 'skipped' });
    assert.strictEqual(timers.pending, 0);
  });
});
