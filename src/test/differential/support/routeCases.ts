/** The four route cases and the mocha hook that gives a describe block one piece server. */
import { CHAT_CASE } from './chatCase';
import type { RouteCase } from './delivered';
import { GEMINI_CASE } from './geminiCase';
import { MESSAGES_CASE } from './messagesCase';
import { startPieceServer, type PieceServer } from './pieceServer';
import { RESPONSES_CASE } from './responsesCase';

export const ALL_CASES: RouteCase[] = [CHAT_CASE, RESPONSES_CASE, MESSAGES_CASE, GEMINI_CASE];

/** One loopback server for the block's tests; the getter throws outside them. */
export function usePieceServer(): () => PieceServer {
  let server: PieceServer | undefined;
  before(async () => {
    server = await startPieceServer();
  });
  after(async () => {
    await server?.close();
    server = undefined;
  });
  return () => {
    if (!server) throw new Error('usePieceServer: the server exists only inside the tests of the block that called it');
    return server;
  };
}
