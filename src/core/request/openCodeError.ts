/**
 * An HTTP error → OpenCode's own error class (routes/select/openCodeErrors.ts), for the engine (wrong route),
 * the retry policy (never retry a limit or a refusal) and userFacingError (say what is true).
 */
import { APIError } from 'openai';
import { classifyOpenCodeError, type OpenCodeError } from '../routes/select/openCodeErrors';

export function openCodeErrorOf(error: unknown): OpenCodeError | undefined {
  if (!(error instanceof APIError) || typeof error.status !== 'number') return undefined;
  const retryAfter = error.headers?.get('retry-after') ?? undefined;
  return classifyOpenCodeError(error.status, error.error ?? error.message, retryAfter);
}
