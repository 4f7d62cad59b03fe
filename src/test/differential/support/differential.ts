/**
 * The differential property: the same bytes, served in the same random pieces, read once by the route's
 * official SDK and once by the extension; what each delivers must be the same (text exact, thinking, tool
 * calls by name and arguments, usage). docs/routes.md "Differential tests" lists the deliberate differences.
 */
import * as assert from 'assert';
import fc from 'fast-check';
import { answerArb, callBlocks, cutsArb, type Answer } from './answerArb';
import type { Delivered, RouteCase } from './delivered';
import { extensionRead } from './extensionRead';
import type { PieceServer } from './pieceServer';

export interface Served {
  answer: Answer;
  body: string;
  cuts: number[];
}

/** An answer on `c`'s wire with the byte offsets the server cuts it at. */
export function servedArb(c: RouteCase, answers: fc.Arbitrary<Answer> = answerArb(c.usageShapes, c.noUsage), encode = c.encode): fc.Arbitrary<Served> {
  return answers.chain((answer) => {
    const body = encode(answer);
    return cutsArb(Buffer.byteLength(body)).map((cuts) => ({ answer, body, cuts }));
  });
}

/** Both readings of `served`: the SDK's first, then the extension's, each from a fresh request. */
export async function bothReadings(server: PieceServer, c: RouteCase, served: Served): Promise<{ sdk: Delivered; ext: Delivered; callIds: string[]; warnings: string[] }> {
  server.serve(served.body, served.cuts);
  const sdk = await c.oracle(server.origin);
  server.serve(served.body, served.cuts);
  const { delivered: ext, events, warnings } = await extensionRead(server.origin, c.route);
  return { sdk, ext, callIds: events.flatMap((e) => (e.kind === 'toolCall' ? [e.callId] : [])), warnings };
}

export function assertSameDelivery(ext: Delivered, sdk: Delivered): void {
  assert.strictEqual(ext.text, sdk.text, 'text');
  assert.strictEqual(ext.thinking, sdk.thinking, 'thinking');
  assert.deepStrictEqual(ext.calls, sdk.calls, 'tool calls (name + arguments)');
  assert.deepStrictEqual(ext.usage, sdk.usage, 'usage');
}

export function differentialProperty(server: () => PieceServer, c: RouteCase, served: fc.Arbitrary<Served> = servedArb(c)) {
  return fc.asyncProperty(served, async (s) => {
    const { sdk, ext, callIds, warnings } = await bothReadings(server(), c, s);
    assertSameDelivery(ext, sdk);
    // Ids: the wire's own where it names them (Gemini names none: the extension makes them), never empty or repeated.
    if (c.route !== 'gemini') assert.deepStrictEqual(callIds, callBlocks(s.answer).map((b) => b.id), 'the wire\'s call ids');
    assert.ok(callIds.every((id) => id.length > 0) && new Set(callIds).size === callIds.length, `call ids ${JSON.stringify(callIds)}`);
    // A valid stream logs no WARN but the one that says the output limit was reached.
    assert.deepStrictEqual(warnings.filter((w) => !/stopped at its output limit/.test(w)), [], 'WARN lines');
  });
}
