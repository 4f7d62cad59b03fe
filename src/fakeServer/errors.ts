/** OpenAI-style error bodies, worded like the real gateways so clients' error parsing is exercised. */

export interface ErrorReply {
  status: number;
  body: object;
  headers?: Record<string, string>;
  /** Sent instead of the JSON body, as text/html (a proxy's error page). */
  html?: string;
}

function openAiError(status: number, message: string, type: string, code?: string): ErrorReply {
  return { status, body: { error: { message, type, ...(code ? { code } : {}) } } };
}

export function modelNotFound(modelId: unknown): ErrorReply {
  return openAiError(404, `The model \`${String(modelId)}\` does not exist`, 'invalid_request_error', 'model_not_found');
}

export function invalidApiKey(): ErrorReply {
  return openAiError(401, 'Invalid API key', 'authentication_error');
}

export function contextLengthExceeded(contextWindow: number, promptTokens: number): ErrorReply {
  return openAiError(
    400,
    `This model's maximum context length is ${contextWindow} tokens. However, your messages resulted in ${promptTokens} tokens. Please reduce the length of the messages.`,
    'invalid_request_error',
    'context_length_exceeded',
  );
}

/** OpenAI's refusal of a prompt over a model's input limit: it names no number (gpt-5 above 272,000 tokens). */
export function inputExceeded(): ErrorReply {
  return openAiError(400, 'Your input exceeds the context window of this model. Please adjust your input and try again.', 'invalid_request_error', 'context_length_exceeded');
}

/**
 * The model's own limit for a prompt of `promptTokens`: over its input limit the numberless refusal, over its window
 * the one naming the window; undefined when it fits.
 */
export function promptTooLong(model: { contextWindow: number; inputLimit?: number }, promptTokens: number): ErrorReply | undefined {
  if (model.inputLimit !== undefined && promptTokens > model.inputLimit) return inputExceeded();
  return promptTokens > model.contextWindow ? contextLengthExceeded(model.contextWindow, promptTokens) : undefined;
}

/** What OpenCode Go answers when the `x-opencode-session` header is missing. */
export function missingSession(): ErrorReply {
  return openAiError(400, 'MissingSessionID: the x-opencode-session header is required', 'invalid_request_error', 'MissingSessionID');
}

/** OpenAI's wording when a model does not take a parameter (e.g. temperature on a reasoning model). */
export function unsupportedParameter(param: string): ErrorReply {
  const reply = openAiError(400, `Unsupported parameter: '${param}' is not supported with this model.`, 'invalid_request_error', 'unsupported_parameter');
  return { ...reply, body: { error: { ...(reply.body as { error: object }).error, param } } };
}

export function rateLimited(retryAfterSeconds: number): ErrorReply {
  const reply = openAiError(429, 'Rate limit reached, please retry later', 'rate_limit_error', 'rate_limit_exceeded');
  return { ...reply, headers: { 'Retry-After': String(retryAfterSeconds) } };
}

export function serverError(status: number): ErrorReply {
  const messages: Record<number, string> = { 500: 'Internal server error', 502: 'Bad gateway', 503: 'Service unavailable' };
  return openAiError(status, messages[status] ?? `Upstream error ${status}`, 'server_error');
}

/** A 200 whose JSON body is an error (some gateways answer a streaming request so); the message names a key. */
export function errorInOkBody(): ErrorReply {
  return { status: 200, body: { error: { message: 'Upstream provider rejected the request made with key sk-upstream-0123456789abcdef', type: 'upstream_error' } } };
}

/** A proxy's HTML error page of about 3 KB, as a 502 in front of the gateway. */
export function htmlBadGateway(): ErrorReply {
  const filler = '<p>The upstream server did not answer in time. Please retry your request later.</p>\n'.repeat(36);
  const html = `<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title><style>body{font-family:sans-serif}</style></head>\n<body><h1>502 Bad Gateway</h1>\n${filler}</body></html>\n`;
  return { status: 502, body: {}, html };
}

export function badRequest(message: string, code?: string): ErrorReply {
  return openAiError(400, message, 'invalid_request_error', code);
}

export function notFound(path: string): ErrorReply {
  return openAiError(404, `No route for ${path}`, 'invalid_request_error', 'not_found');
}
