/**
 * `/_control/*`: scripting a server that runs in another process (CLI, `npm start`). These requests are
 * not recorded, so they never shift the indexes of `requests`.
 */
import type { ServerResponse } from 'node:http';
import { resetState, type ServerState } from './state';
import { parseFaultSpec } from './faults';
import { parseScriptedReply } from './requestInput';
import * as errors from './errors';
import { sendError, sendJson } from './transport';

export function handleControl(state: ServerState, method: string, path: string, body: unknown, res: ServerResponse): void {
  const route = `${method} ${path}`;
  try {
    switch (route) {
      case 'POST /_control/reply':
        state.replyQueue.push(parseScriptedReply(body));
        return sendJson(res, 200, { queuedReplies: state.replyQueue.length });
      case 'POST /_control/fault':
        state.faultQueue.push(parseFaultSpec(body));
        return sendJson(res, 200, { queuedFaults: state.faultQueue.length });
      case 'POST /_control/reset':
        resetState(state);
        return sendJson(res, 200, { ok: true });
      case 'GET /_control/requests':
        return sendJson(res, 200, state.recorder.requests);
      default:
        return sendError(res, errors.notFound(route));
    }
  } catch (error) {
    sendError(res, errors.badRequest((error as Error).message, 'invalid_control_request'));
  }
}
