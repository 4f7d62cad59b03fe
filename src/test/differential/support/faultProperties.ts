/**
 * Differential properties over the provider behaviours in faultyWire.ts, each written to the behaviour
 * docs/reliability.md asks for, whatever today's readers do.
 */
import * as assert from 'assert';
import fc from 'fast-check';
import { answerArb, callBlocks } from './answerArb';
import { CHAT_CASE } from './chatCase';
import type { RouteCase } from './delivered';
import { differentialProperty, servedArb } from './differential';
import { extensionRead } from './extensionRead';
import { chatWithRepeatedNames, errorFrame, responsesRefusalEvents, textSoFar, withEmptyCallIds, withEmptyUsage, withStringCounts } from './faultyWire';
import { GEMINI_CASE } from './geminiCase';
import { framesOf } from './responsesCase';
import type { PieceServer } from './pieceServer';
import { cutsArb } from './answerArb';
import { openAIOracle } from './sdkClients';

type Server = () => PieceServer;

/** Usage counts as numeric strings read as the numbers they spell, on every route. */
export const stringCounts = (server: Server, c: RouteCase) => differentialProperty(server, c, servedArb(c, answerArb(c.usageShapes, false), (a) => withStringCounts(c.encode(a))));

/** An empty usage object is no usage: no usage event, nothing learned from zeros. */
export const emptyUsage = (server: Server, c: RouteCase) => differentialProperty(server, c, servedArb(c, answerArb(c.usageShapes, false), (a) => withEmptyUsage(c.encode(a))));

/** Chat: a name repeated whole on every fragment is the name once (the SDK replaces, never appends). */
export const repeatedNames = (server: Server) => differentialProperty(server, CHAT_CASE, servedArb(CHAT_CASE, answerArb(CHAT_CASE.usageShapes), chatWithRepeatedNames));

/** Calls whose ids came empty are delivered (name + arguments as the SDK reads them) with non-empty, distinct ids. */
export function emptyIds(server: Server, c: RouteCase) {
  const withCalls = answerArb(c.usageShapes, c.noUsage).filter((a) => callBlocks(a).length > 0);
  return fc.asyncProperty(servedArb(c, withCalls, (a) => withEmptyCallIds(c.encode(a))), async (s) => {
    server().serve(s.body, s.cuts);
    const sdk = await c.oracle(server().origin);
    server().serve(s.body, s.cuts);
    const { delivered, events } = await extensionRead(server().origin, c.route);
    assert.deepStrictEqual(delivered.calls, sdk.calls);
    const ids = events.flatMap((e) => (e.kind === 'toolCall' ? [e.callId] : []));
    assert.ok(ids.every((id) => id.length > 0) && new Set(ids).size === ids.length, `ids ${JSON.stringify(ids)}`);
  });
}

const wordsArb = fc.stringMatching(/^[A-Z][a-z]{3,12}( [a-z]{2,8}){0,3}$/);
const shownArb = fc.array(fc.stringMatching(/^[a-z]{1,8} $/), { minLength: 1, maxLength: 4 });

/**
 * An error frame (with its wire's `type`, or a bare `event: error` without one) after `shown` text: the SDK
 * fails the stream; the extension keeps the text shown and says why the answer ended, or, with nothing
 * shown yet, fails with the provider's message.
 */
export function errorFrames(server: Server, c: RouteCase, typed: boolean, afterText: boolean) {
  const arb = fc.record({ message: wordsArb, shown: afterText ? shownArb : fc.constant([] as string[]) }).chain(({ message, shown }) => {
    const body = textSoFar(c.route, shown) + errorFrame(c.route, message, typed);
    return cutsArb(Buffer.byteLength(body)).map((cuts) => ({ message, shown: shown.join(''), body, cuts }));
  });
  return fc.asyncProperty(arb, async ({ message, shown, body, cuts }) => {
    server().serve(body, cuts);
    await assert.rejects(c.oracle(server().origin), `the SDK fails on the ${c.route} error frame`);
    server().serve(body, cuts);
    let delivered = '';
    try {
      delivered = (await extensionRead(server().origin, c.route)).delivered.text;
    } catch (error) {
      assert.ok(String((error as Error).message).includes(message), `the error names the provider's message: ${(error as Error).message}`);
      return;
    }
    assert.ok(shown.length > 0, 'nothing was shown: the request fails');
    assert.ok(delivered.startsWith(shown), 'the text shown is kept');
    assert.ok(delivered.slice(shown.length).includes(message), `a line says why the answer was cut: ${JSON.stringify(delivered)}`);
  });
}

/** Chat: a refusal (`delta.refusal`, content null) is shown as the model's words, as the SDK's `message.refusal`. */
export function chatRefusal(server: Server) {
  const arb = fc.array(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }), { minLength: 1, maxLength: 4 }).chain((pieces) => {
    const chunk = (delta: object, finish: string | null = null) => `data: ${JSON.stringify({ id: 'chatcmpl-r', object: 'chat.completion.chunk', created: 1, model: 'diff-chat', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    const body = chunk({ role: 'assistant', content: null }) + pieces.map((refusal) => chunk({ refusal })).join('') + chunk({}, 'stop') + 'data: [DONE]\n\n';
    return cutsArb(Buffer.byteLength(body)).map((cuts) => ({ body, cuts }));
  });
  return fc.asyncProperty(arb, async ({ body, cuts }) => {
    server().serve(body, cuts);
    const final = await openAIOracle(server().origin).chat.completions.stream({ model: 'diff-chat', messages: [{ role: 'user', content: 'hi' }] }).finalChatCompletion();
    server().serve(body, cuts);
    const { delivered } = await extensionRead(server().origin, 'chat');
    assert.strictEqual(delivered.text, final.choices[0].message.refusal);
  });
}

/** Responses: a refusal content part (`response.refusal.delta`) is shown as the model's words, as the SDK reads it. */
export function responsesRefusal(server: Server) {
  const arb = fc.array(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }), { minLength: 1, maxLength: 4 }).chain((pieces) => {
    const body = framesOf(responsesRefusalEvents(pieces));
    return cutsArb(Buffer.byteLength(body)).map((cuts) => ({ body, cuts }));
  });
  return fc.asyncProperty(arb, async ({ body, cuts }) => {
    server().serve(body, cuts);
    const final = await openAIOracle(server().origin).responses.stream({ model: 'diff-responses', input: 'hi' }).finalResponse();
    const refusal = final.output.flatMap((item) => (item.type === 'message' ? item.content.map((p) => (p.type === 'refusal' ? p.refusal : '')) : [])).join('');
    server().serve(body, cuts);
    const { delivered } = await extensionRead(server().origin, 'responses');
    assert.strictEqual(delivered.text, refusal);
  });
}

/** Gemini: a SAFETY stop after some text keeps the text and adds a short note saying why it stopped. */
export function geminiSafetyAfterText(server: Server) {
  const arb = shownArb.chain((shown) => {
    const body = textSoFar('gemini', shown) + `data: ${JSON.stringify({ candidates: [{ content: { role: 'model', parts: [] }, index: 0, finishReason: 'SAFETY' }], usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 3, totalTokenCount: 13 } })}\n\n`;
    return cutsArb(Buffer.byteLength(body)).map((cuts) => ({ shown: shown.join(''), body, cuts }));
  });
  return fc.asyncProperty(arb, async ({ shown, body, cuts }) => {
    server().serve(body, cuts);
    const sdkText = (await GEMINI_CASE.oracle(server().origin)).text;
    assert.strictEqual(sdkText, shown);
    server().serve(body, cuts);
    const { delivered } = await extensionRead(server().origin, 'gemini');
    assert.ok(delivered.text.startsWith(shown) && delivered.text.length > shown.length, `a note after the text: ${JSON.stringify(delivered.text)}`);
  });
}
