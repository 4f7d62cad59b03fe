/**
 * Differential properties for the faults the per-route readers used to get wrong (numeric-string usage, empty
 * usage, empty ids, error frames, repeated names, refusals, safety stops), each written to the behaviour of
 * the one stream assembler (core/answer) and checked against the official SDK on the same bytes. Every one
 * failed before the assembler (docs/routes.md, "Differential tests").
 */
import fc from 'fast-check';
import { runs } from '../support/propertyRuns';
import { CHAT_CASE } from './support/chatCase';
import { chatRefusal, emptyIds, emptyUsage, errorFrames, geminiSafetyAfterText, repeatedNames, stringCounts } from './support/faultProperties';
import { GEMINI_CASE } from './support/geminiCase';
import { MESSAGES_CASE } from './support/messagesCase';
import { RESPONSES_CASE } from './support/responsesCase';
import { ALL_CASES, usePieceServer } from './support/routeCases';

describe('differential: the answer rules on faults the per-route readers got wrong', () => {
  const server = usePieceServer();
  const runsEach = { numRuns: runs(20) };

  for (const c of [RESPONSES_CASE, MESSAGES_CASE, GEMINI_CASE]) {
    it(`${c.route}: usage counts sent as numeric strings are read as numbers (today: 0)`, () => fc.assert(stringCounts(server, c), runsEach));
  }
  for (const c of [RESPONSES_CASE, GEMINI_CASE]) {
    it(`${c.route}: an empty usage object is no usage (today: an all-zero usage)`, () => fc.assert(emptyUsage(server, c), runsEach));
  }
  it('messages: a tool_use whose id came empty gets a non-empty id (today: delivered with "")', () => fc.assert(emptyIds(server, MESSAGES_CASE), runsEach));
  for (const c of ALL_CASES) {
    it(`${c.route}: an error frame after text keeps the text and says why the answer was cut (today: silent)`, () => fc.assert(errorFrames(server, c, true, true), runsEach));
  }
  for (const c of [CHAT_CASE, RESPONSES_CASE, MESSAGES_CASE]) {
    it(`${c.route}: an \`event: error\` frame without a type fails the request with its message (today: "empty answer")`, () => fc.assert(errorFrames(server, c, false, false), runsEach));
    it(`${c.route}: an \`event: error\` frame without a type after text is said (today: ignored)`, () => fc.assert(errorFrames(server, c, false, true), runsEach));
  }
  it('chat: a name repeated whole on every fragment stays the name (today: concatenated)', () => fc.assert(repeatedNames(server), runsEach));
  it('chat: a refusal is shown as the model\'s words (today: "empty answer")', () => fc.assert(chatRefusal(server), runsEach));
  it('gemini: a SAFETY stop after text keeps the text and adds a note (today: silent)', () => fc.assert(geminiSafetyAfterText(server), runsEach));
});
