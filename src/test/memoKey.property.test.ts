/**
 * One memo key scheme (core/trim/messageSize.ts contentKey): messages, layouts and the tools block are keyed by their
 * content exactly, so a memo hit can never hand a message (or the tools) another's size and move the cut. The old
 * fingerprints (lengths and the first/last 48 characters; tool names, description lengths and parameter names) did
 * collide on the pairs built here: same lengths and ends, a different middle.
 */
import * as assert from 'assert';
import fc from 'fast-check';
import { contentKey, imageDataKey, measureMessage, measureTools, messageKey, SizeMemo, toolsKey, toolsSize } from '../core/trim/messageSize';
import type { WireMessage, WireTool } from '../core/wire/wireTypes';
import { runs } from './support/propertyRuns';

const anyText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 300 }),
  fc.string({ unit: fc.constantFrom('"', '\\', '\n', 'a', ' ', '中', '\ud83d', '\ude00', '\ufffd', 'é', '|', ':', '#', ';'), maxLength: 400 }),
);

/** A text and a twin of the same length and the same first and last 48 characters, differing in the middle. */
const twinTexts = fc
  .tuple(fc.string({ minLength: 48, maxLength: 48 }), fc.string({ minLength: 1, maxLength: 300 }), fc.string({ minLength: 48, maxLength: 48 }), fc.nat(), fc.constantFrom('x', '\ud800', '\ufffd', '"', '中'))
  .map(([head, middle, tail, at, other]) => {
    const i = at % middle.length;
    const changed = middle[i] === other ? (other === 'x' ? 'y' : 'x') : other;
    return [head + middle + tail, head + middle.slice(0, i) + changed + middle.slice(i + 1) + tail] as const;
  });

function messageOf(kind: number, text: string, id: string): WireMessage {
  switch (kind % 5) {
    case 0:
      return { role: 'user', content: text };
    case 1:
      return { role: 'tool', tool_call_id: id, content: text };
    case 2:
      return { role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name: 'read_file', arguments: text } }] };
    case 3:
      return { role: 'assistant', content: 'ok', reasoning_content: text };
    default:
      return { role: 'user', content: [{ type: 'text', text }, { type: 'text', text: 'and' }] };
  }
}

const messageArb = fc.tuple(fc.nat(), anyText, fc.string({ maxLength: 12 })).map(([kind, text, id]) => messageOf(kind, text, id));

function toolOf(description: string): WireTool[] {
  return [{ type: 'function', function: { name: 'read_file', description, parameters: { type: 'object', properties: { path: { type: 'string' } } } } }];
}

describe('one memo key scheme: a key names the content exactly', () => {
  it('equal message keys mean equal messages (so equal sizes); different messages, different keys', () => {
    fc.assert(
      fc.property(messageArb, messageArb, (a, b) => {
        const same = JSON.stringify(a) === JSON.stringify(b);
        assert.strictEqual(messageKey(a) === messageKey(b), same, 'key equality is content equality');
        if (messageKey(a) === messageKey(b)) assert.deepStrictEqual(measureMessage(a), measureMessage(b));
      }),
      { numRuns: runs(300) },
    );
  });

  it('texts the old fingerprint confused (same length, same ends) get different keys, and the memo measures each', () => {
    fc.assert(
      fc.property(twinTexts, fc.nat(), ([text, twin], kind) => {
        assert.notStrictEqual(contentKey(text), contentKey(twin));
        const a = messageOf(kind, text, 'call_1');
        const b = messageOf(kind, twin, 'call_1');
        assert.notStrictEqual(messageKey(a), messageKey(b));
        const memo = new SizeMemo();
        memo.sizeOf(a);
        // A fresh object of the same content hits; the twin is measured on its own.
        assert.deepStrictEqual(memo.sizeOf(structuredClone(a)), measureMessage(a));
        assert.deepStrictEqual(memo.sizeOf(b), measureMessage(b));
        assert.strictEqual(memo.hits, 1);
      }),
      { numRuns: runs(200) },
    );
  });

  it('keys are self-delimiting: texts split differently across fields never join into the same key', () => {
    fc.assert(
      fc.property(anyText, anyText, anyText, anyText, (a, b, c, d) => {
        fc.pre(a !== c || b !== d);
        assert.notStrictEqual(contentKey(a) + contentKey(b), contentKey(c) + contentKey(d));
      }),
      { numRuns: runs(300) },
    );
  });

  it('the tools block: same JSON, same key; a description changed in the middle is measured afresh', () => {
    fc.assert(
      fc.property(twinTexts, ([text, twin]) => {
        const a = toolOf(text);
        const b = toolOf(twin);
        assert.strictEqual(toolsKey(a), toolsKey(toolOf(text)));
        assert.notStrictEqual(toolsKey(a), toolsKey(b));
        assert.deepStrictEqual(toolsSize(a), measureTools(a));
        assert.deepStrictEqual(toolsSize(b), measureTools(b));
      }),
      { numRuns: runs(100) },
    );
  });

  // Image data is keyed by its length and 32 slices, not whole (hashing megabytes per new message blocked the host).
  it('image data: the size never depends on it, and data that differs in length or in a sampled slice keys apart', () => {
    const withImage = (url: string): WireMessage => ({ role: 'user', content: [{ type: 'text', text: 'look' }, { type: 'image_url', image_url: { url } }] });
    fc.assert(
      fc.property(fc.string({ minLength: 300, maxLength: 3000 }), fc.nat(), fc.constantFrom('A', 'b', '/'), (data, at, other) => {
        const url = `data:image/png;base64,${data}`;
        const i = at % url.length;
        const changed = url.slice(0, i) + (url[i] === other ? '+' : other) + url.slice(i + 1);
        assert.deepStrictEqual(measureMessage(withImage(changed)), measureMessage(withImage(url)), 'a size that read image data');
        const stride = Math.floor((url.length - 16) / 31);
        const sampled = Array.from({ length: 32 }, (_, k) => k * stride).some((start) => i >= start && i < start + 16);
        if (sampled) assert.notStrictEqual(imageDataKey(changed), imageDataKey(url));
        assert.notStrictEqual(imageDataKey(url + 'A'), imageDataKey(url), 'a longer image, the same key');
      }),
      { numRuns: runs(200) },
    );
  });
});
