/**
 * The engine's request preparation, synchronous, for tests and the bench: the request's images as given (the engine
 * fits them first, off the host thread: convertForRequest), then exactly the engine's prepareConverted.
 */
import { convertFitted, prepareConverted, type ChatRequest, type PrepareContext, type PreparedRequest } from '../../core/request/prepareRequest';

export function prepareRequest(request: ChatRequest, ctx: PrepareContext): PreparedRequest {
  return prepareConverted(request, convertFitted(request, undefined, ctx), ctx);
}
