/**
 * Differential tests against the official SDKs (docs/routes.md "Differential tests"): random valid answers on
 * each route's wire — text in any unicode, signed thinking, parallel tool calls with arguments split anywhere,
 * every usage shape the route knows, the output limit — served over loopback in random byte pieces, read by
 * the SDK's own stream accumulator and by the extension's request path; both must deliver the same.
 */
import fc from 'fast-check';
import { runs } from '../support/propertyRuns';
import { CHAT_CASE } from './support/chatCase';
import { differentialProperty } from './support/differential';
import { GEMINI_CASE } from './support/geminiCase';
import { MESSAGES_CASE } from './support/messagesCase';
import { startPieceServer, type PieceServer } from './support/pieceServer';
import { RESPONSES_CASE } from './support/responsesCase';

describe('differential: the extension delivers what the official SDK reads from the same bytes', () => {
  let server: PieceServer | undefined;
  before(async () => {
    server = await startPieceServer();
  });
  after(async () => server?.close());
  const current = (): PieceServer => server!;

  for (const c of [CHAT_CASE, RESPONSES_CASE, MESSAGES_CASE, GEMINI_CASE]) {
    it(`${c.route}: text, thinking, parallel tool calls and usage equal the SDK's accumulator (${c.route === 'chat' ? 'openai chat.completions.stream' : c.route === 'responses' ? 'openai responses.stream' : c.route === 'messages' ? '@anthropic-ai/sdk messages.stream' : '@google/genai generateContentStream'})`, async () => {
      await fc.assert(differentialProperty(current, c), { numRuns: runs(60) });
    });
  }
});
