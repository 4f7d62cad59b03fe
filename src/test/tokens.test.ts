import * as assert from 'assert';
import * as path from 'path';
import fc from 'fast-check';
// eslint-disable-next-line @typescript-eslint/no-require-imports -- same spelling as src/core/tokens/o200k.ts
import o200kReference = require('gpt-tokenizer/cjs/encoding/o200k_base');
import type { ChatMessage } from '../core/types';
import { countMessageTokens, countTokens } from '../core/tokens/tokenCounter';
import { estimateTextTokens } from '../core/tokens/estimate';
import { IMAGE_TOKEN_COST, MESSAGE_OVERHEAD_TOKENS, TOOL_OVERHEAD_TOKENS, chatMessagePieces, messageTokens, toolsTokens, wireMessagePieces, wireToolPieces } from '../core/tokens/messageTokens';
import { toWireMessages, toWireTools } from '../core/convert/toWireMessages';
import { measureMessage, measureTools } from '../core/trim/messageSize';
import { SAMPLE_KINDS, SampleKind, generateSample } from './fixtures/textSamples';

const tokensDir = path.join(__dirname, '..', 'core', 'tokens');
const tokenCounterPath = path.join(tokensDir, 'tokenCounter.js');
const o200kPath = path.join(tokensDir, 'o200k.js');

function referenceCount(text: string): number {
  return o200kReference.countTokens(text, { disallowedSpecial: new Set() });
}

function relativeError(estimate: number, exact: number): number {
  return Math.abs(estimate / exact - 1);
}

type TokenCounterModule = typeof import('../core/tokens/tokenCounter');

/** A new instance of tokenCounter (and of o200k.js on its first use), whatever other test files loaded. */
function freshTokenCounter(): TokenCounterModule {
  delete require.cache[tokenCounterPath];
  delete require.cache[o200kPath];
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loading it anew is what is tested
  return require(tokenCounterPath) as TokenCounterModule;
}

describe('tokenizer loading', () => {
  it('does not load o200k until the first count', () => {
    const keysBefore = new Set(Object.keys(require.cache));
    const fresh = freshTokenCounter();
    const keysAdded = Object.keys(require.cache).filter((key) => !keysBefore.has(key));
    assert.deepStrictEqual(keysAdded.filter((key) => /o200k/.test(key)), []);
    assert.strictEqual(require.cache[o200kPath], undefined);

    assert.strictEqual(fresh.countTokens('hello world'), 2);
    assert.ok(require.cache[o200kPath], 'o200k.js is loaded on first use');
  });
});

describe('countTokens', () => {
  it('equals gpt-tokenizer o200k exactly on every sample kind', () => {
    for (const kind of SAMPLE_KINDS) {
      for (const length of [40, 300, 5000]) {
        const text = generateSample(kind, length, 11);
        assert.strictEqual(countTokens(text), referenceCount(text), `${kind}, ${length} chars`);
      }
    }
  });

  it('handles empty text, emoji and special-token markers as plain text', () => {
    assert.strictEqual(countTokens(''), 0);
    for (const text of ['a', '👍🏽 done', 'before <|endoftext|> after', '<|im_start|>user']) {
      assert.strictEqual(countTokens(text), referenceCount(text), text);
    }
  });

  it('memoizes long strings: the tokenizer runs once per distinct text', () => {
    const { countTokens } = freshTokenCounter(); // its first count will load exactly this o200k module:
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the module object, to spy on it
    const o200kModule = require(o200kPath) as { countTextTokens(text: string): number };
    const original = o200kModule.countTextTokens;
    let calls = 0;
    o200kModule.countTextTokens = (text: string): number => {
      calls++;
      return original(text);
    };
    try {
      const medium = generateSample('typescript', 2_000, 5); // keyed by the text itself
      const large = generateSample('jsonPretty', 200_000, 5); // keyed by its digest
      const first = [countTokens(medium), countTokens(large)];
      const counted = calls; // the large text goes to the encoder in bounded chunks (boundedTokenCount, tokenCounter.ts)
      const again = [countTokens(medium), countTokens(large)];
      assert.deepStrictEqual(again, first);
      assert.strictEqual(calls, counted);
      assert.strictEqual(countTokens(large + ' '), referenceCount(large + ' '));
      assert.ok(calls > counted);
    } finally {
      o200kModule.countTextTokens = original;
    }
  });
});

describe('countMessageTokens', () => {
  const message = (...parts: ChatMessage['parts']): ChatMessage => ({ role: 'user', parts });

  it('adds the per-message overhead to its text', () => {
    assert.strictEqual(countMessageTokens(message()), MESSAGE_OVERHEAD_TOKENS);
    assert.strictEqual(countMessageTokens(message({ kind: 'text', text: 'hello world' })), MESSAGE_OVERHEAD_TOKENS + 2);
  });

  it('counts tool calls as scaffold, name and JSON input, and tool results and thinking as text', () => {
    const input = { path: 'src/extension.ts', line: 42 };
    const expected = MESSAGE_OVERHEAD_TOKENS + TOOL_OVERHEAD_TOKENS +
      referenceCount('read_file') + referenceCount(JSON.stringify(input)) +
      referenceCount('file contents here') + referenceCount('Let me look at the file first.');
    const counted = countMessageTokens({
      role: 'assistant',
      parts: [
        { kind: 'thinking', text: 'Let me look at the file first.' },
        { kind: 'toolCall', callId: 'call_1', name: 'read_file', input },
        { kind: 'toolResult', callId: 'call_1', text: 'file contents here' },
      ],
    });
    assert.strictEqual(counted, expected);
  });

  it('charges images a fixed cost and ignored parts nothing', () => {
    const image = { kind: 'image' as const, mimeType: 'image/png', data: new Uint8Array(500_000) };
    const ignored = { kind: 'ignored' as const, reason: 'cache_control' };
    assert.strictEqual(countMessageTokens(message(image, ignored)), MESSAGE_OVERHEAD_TOKENS + IMAGE_TOKEN_COST);
  });

  it('counts the optional participant name', () => {
    const named: ChatMessage = { role: 'user', name: 'alice', parts: [{ kind: 'text', text: 'hi' }] };
    assert.strictEqual(countMessageTokens(named), MESSAGE_OVERHEAD_TOKENS + referenceCount('alice') + referenceCount('hi'));
  });

});

describe('one per-message rule and one tool-size rule for the exact count and the trim estimate', () => {
  const text = fc.string({ maxLength: 40 });
  const toolCall = fc.record({ kind: fc.constant('toolCall' as const), callId: fc.string({ minLength: 1, maxLength: 8 }), name: fc.string({ minLength: 1, maxLength: 12 }), input: fc.dictionary(fc.string({ maxLength: 6 }), fc.string({ maxLength: 10 })) });
  const thinking = fc.record({ kind: fc.constant('thinking' as const), text });
  // With an additive text counter the rule must give the same total whether it reads the message as VS Code
  // hands it (provideTokenCount) or as it goes on the wire (the trim's SizeMemo).
  const byLength = (t: string): number => t.length;

  it('an assistant message costs the same as a ChatMessage and as a WireMessage', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 40 }), fc.array(fc.oneof(toolCall, thinking), { maxLength: 5 }), (answer, parts) => {
        const chat: ChatMessage = { role: 'assistant', parts: [{ kind: 'text', text: answer }, ...parts] };
        const [wire] = toWireMessages([chat]);
        assert.strictEqual(messageTokens(wireMessagePieces(wire), byLength), messageTokens(chatMessagePieces(chat), byLength));
      }),
    );
  });

  it('the trim measures the tools block with the tool-size rule', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ name: fc.string({ minLength: 1, maxLength: 12 }), description: text, inputSchema: fc.option(fc.constant({ type: 'object', properties: { a: { type: 'string' } } }), { nil: undefined }) }), { maxLength: 4 }), (tools) => {
        const wire = toWireTools(tools);
        assert.strictEqual(measureTools(wire).tokens, toolsTokens(wire.map(wireToolPieces), estimateTextTokens));
        assert.strictEqual(measureTools(wire).bytes, wire.length ? Buffer.byteLength(JSON.stringify(wire)) : 0);
      }),
    );
  });

  it("the trim's estimate of a message is the rule applied with the estimator", () => {
    const image = { type: 'image_url' as const, image_url: { url: `data:image/png;base64,${'A'.repeat(1000)}` } };
    const sample = generateSample('english', 2_000, 3);
    const size = measureMessage({ role: 'user', content: [{ type: 'text', text: sample }, image] });
    assert.strictEqual(size.tokens, MESSAGE_OVERHEAD_TOKENS + IMAGE_TOKEN_COST + estimateTextTokens(sample));
  });
});

describe('toolsTokens', () => {
  it('counts name, description and schema of each tool plus a fixed scaffold', () => {
    const schema = { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] };
    const tools = [
      { name: 'read_file', description: 'Read a file from the workspace.', schema },
      { name: 'list_dir', description: 'List a directory.', schema: {} },
    ];
    const expected =
      2 * TOOL_OVERHEAD_TOKENS +
      referenceCount('read_file') + referenceCount('Read a file from the workspace.') + referenceCount(JSON.stringify(schema)) +
      referenceCount('list_dir') + referenceCount('List a directory.') + referenceCount('{}');
    assert.strictEqual(toolsTokens(tools, countTokens), expected);
    assert.strictEqual(toolsTokens([], countTokens), 0);
  });
});

describe('estimateTextTokens', () => {
  const seeds = [1, 2, 3];
  const sampleLength = 20_000;

  for (const kind of SAMPLE_KINDS) {
    it(`is within ±10% of o200k on ${kind}`, () => {
      for (const seed of seeds) {
        const text = generateSample(kind, sampleLength, seed);
        const error = relativeError(estimateTextTokens(text), referenceCount(text));
        assert.ok(error <= 0.1, `${kind} seed ${seed}: ${(error * 100).toFixed(1)}% off`);
      }
    });
  }

  const kindsWhereCharsOverFourFails: SampleKind[] = ['jsonPretty', 'jsonMinified', 'chinese'];
  for (const kind of kindsWhereCharsOverFourFails) {
    it(`beats chars/4 on ${kind}`, () => {
      for (const seed of seeds) {
        const text = generateSample(kind, sampleLength, seed);
        const exact = referenceCount(text);
        const ourError = relativeError(estimateTextTokens(text), exact);
        const charsOverFourError = relativeError(text.length / 4, exact);
        assert.ok(ourError < charsOverFourError / 2, `${kind} seed ${seed}: ${ourError} vs chars/4 ${charsOverFourError}`);
      }
    });
  }

  it('gives 0 for empty text and a non-negative integer for any string', () => {
    assert.strictEqual(estimateTextTokens(''), 0);
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (text) => {
        const estimate = estimateTextTokens(text);
        return Number.isInteger(estimate) && estimate >= 0 && (text.length === 0 || estimate > 0);
      }),
    );
  });

  it('grows linearly: twice the text, about twice the estimate', () => {
    const text = generateSample('mixed', 10_000, 4);
    const once = estimateTextTokens(text);
    const twice = estimateTextTokens(text + text);
    assert.ok(Math.abs(twice - 2 * once) <= 2, `${once} → ${twice}`);
  });
});
