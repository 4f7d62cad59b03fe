/**
 * The Gemini route's per-attempt rules (core/routes/route.ts AttemptRules): temperature and thinkingConfig live
 * inside generationConfig; the stand-in signatures of the history are worth one WARN per model (standInNote.ts).
 */
import { recordField, isRecord } from '../../util/jsonFields';
import { inMemoryPrefixMs } from '../cacheLifetime';
import type { AttemptRules } from '../route';
import { noteStandIn } from './standInNote';

export const geminiAttempt: AttemptRules = {
  required: ['contents'],
  dropNested(body, omitted) {
    if (!isRecord(body.generationConfig)) return body;
    const config: Record<string, unknown> = { ...body.generationConfig };
    if (omitted.has('temperature')) delete config.temperature;
    if (omitted.has('thinkingConfig')) delete config.thinkingConfig;
    return { ...body, generationConfig: config };
  },
  beforeSend: noteStandIn,
  warming: {
    body: (body) => ({ ...body, generationConfig: { ...recordField(body.generationConfig), maxOutputTokens: 1 } }),
    prefixLifetimeMs: inMemoryPrefixMs,
  },
};
