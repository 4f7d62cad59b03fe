/** Responses (`/responses`, OpenCode's "openai" format): GPT, Grok and Muse models. */
import { bearerHeaders } from '../headers';
import type { Route } from '../route';
import { buildResponsesBody } from './responsesBody';
import { ResponsesReader } from './responsesStream';

export const responsesRoute: Route = {
  id: 'responses',
  path: '/responses',
  headers: bearerHeaders,
  buildBody: buildResponsesBody,
  newReader: () => new ResponsesReader(),
};
