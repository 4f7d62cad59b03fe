/**
 * The trim's byte count comes from the estimator's single pass (UTF-8 length + JSON escapes of each text)
 * plus the JSON of the message's frame, instead of JSON.stringify of megabytes. It must still be exactly
 * what the message costs on the wire: Buffer.byteLength(JSON.stringify(message)), image data left out.
 */
import * as assert from 'assert';
import fc from 'fast-check';
import { measureMessage } from '../core/trim/messageSize';
import { estimateTextTokens } from '../core/tokens/estimate';
import type { WireMessage } from '../core/wire/wireTypes';
import { runs } from './support/propertyRuns';

// Any UTF-16 code unit (lone surrogates and control characters included), and text rich in what JSON escapes.
const anyText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 300 }),
  fc.string({ unit: 'grapheme', maxLength: 200 }),
  fc.string({ unit: fc.constantFrom('"', '\\', '\n', '\r', '\t', '\b', '\f', '\u0000', '\u001f', '\u007f', 'a', ' ', '中', '\ud83d', '\ude00', '\u2028', 'é'), maxLength: 200 }),
);

const messageArb: fc.Arbitrary<WireMessage> = fc.oneof(
  fc.record({ role: fc.constant('system' as const), content: anyText }),
  fc.record({ role: fc.constant('user' as const), content: anyText }),
  fc.record({
    role: fc.constant('user' as const),
    content: fc.array(fc.oneof(fc.record({ type: fc.constant('text' as const), text: anyText }), fc.record({ type: fc.constant('image_url' as const), image_url: fc.record({ url: fc.base64String().map((b) => `data:image/png;base64,${b}`) }) })), { maxLength: 4 }),
  }),
  fc.record({ role: fc.constant('tool' as const), tool_call_id: fc.string({ maxLength: 12 }), content: anyText }),
  fc.record(
    {
      role: fc.constant('assistant' as const),
      content: fc.option(anyText, { nil: null }),
      reasoning_content: anyText,
      tool_calls: fc.array(fc.record({ id: fc.string({ maxLength: 12 }), type: fc.constant('function' as const), function: fc.record({ name: anyText, arguments: anyText }) }), { maxLength: 3 }),
    },
    { requiredKeys: ['role', 'content'] },
  ),
) as fc.Arbitrary<WireMessage>;

function imageChars(message: WireMessage): number {
  if (!Array.isArray(message.content)) return 0;
  return message.content.reduce((n, part) => n + (part.type === 'image_url' ? part.image_url.url.length : 0), 0);
}

describe('message bytes from the estimator pass', () => {
  it('equal the JSON bytes of the message (image data left out), for any text', () => {
    fc.assert(
      fc.property(messageArb, (message) => {
        assert.strictEqual(measureMessage(message).bytes, Buffer.byteLength(JSON.stringify(message)) - imageChars(message));
      }),
      { numRuns: runs(2_000) },
    );
  });

  it('the escape count does not change the token estimate', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const scan = { jsonEscapeBytes: -1 };
        assert.strictEqual(estimateTextTokens(text, scan), estimateTextTokens(text));
        assert.strictEqual(scan.jsonEscapeBytes, Buffer.byteLength(JSON.stringify(text)) - 2 - Buffer.byteLength(text));
      }),
      { numRuns: runs(2_000) },
    );
  });
});
