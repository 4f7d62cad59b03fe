/**
 * Differential tests against the official SDKs (docs/routes.md "Differential tests"): random valid answers on
 * each route's wire — text in any unicode, signed thinking, parallel tool calls with arguments split anywhere,
 * every usage shape the route knows, the output limit — served over loopback in random byte pieces, read by
 * the SDK's own stream accumulator and by the extension's request path; both must deliver the same.
 * The faults the per-route readers used to get wrong are in answerRules.test.ts.
 */
import fc from 'fast-check';
import { runs } from '../support/propertyRuns';
import { CHAT_CASE } from './support/chatCase';
import { differentialProperty } from './support/differential';
import { emptyIds, emptyUsage, errorFrames, responsesRefusal, stringCounts } from './support/faultProperties';
import { ALL_CASES, usePieceServer } from './support/routeCases';
import { RESPONSES_CASE } from './support/responsesCase';

const SDK_NAME = { chat: 'openai chat.completions.stream', responses: 'openai responses.stream', messages: '@anthropic-ai/sdk messages.stream', gemini: '@google/genai generateContentStream' };

describe('differential: the extension delivers what the official SDK reads from the same bytes', () => {
  const server = usePieceServer();

  for (const c of ALL_CASES) {
    it(`${c.route}: text, thinking, parallel tool calls and usage equal the SDK's accumulator (${SDK_NAME[c.route]})`, async () => {
      await fc.assert(differentialProperty(server, c), { numRuns: runs(60) });
    });

    it(`${c.route}: an error frame before any text fails the request with the provider's message, as it fails the SDK`, async () => {
      await fc.assert(errorFrames(server, c, true, false), { numRuns: runs(15) });
    });
  }

  it('chat: usage counts sent as numeric strings are read as numbers', async () => {
    await fc.assert(stringCounts(server, CHAT_CASE), { numRuns: runs(20) });
  });

  it('chat: an empty usage object is no usage', async () => {
    await fc.assert(emptyUsage(server, CHAT_CASE), { numRuns: runs(20) });
  });

  it('responses: a refusal content part is shown as the model\'s words, as the SDK reads it', async () => {
    await fc.assert(responsesRefusal(server), { numRuns: runs(20) });
  });

  it('responses: calls whose call_id came empty get non-empty distinct ids', async () => {
    await fc.assert(emptyIds(server, RESPONSES_CASE), { numRuns: runs(20) });
  });
});
