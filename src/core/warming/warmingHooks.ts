/**
 * The two engine callbacks that drive warming (the extension and the tests wire the same ones): an attempt
 * starting means the user went on in that conversation; a request accounted starts its pause, with the body
 * exactly as the engine sent it (attemptBody, the same pure function the engine calls).
 */
import type { Settings } from '../config/settings';
import type { PreparedRequest } from '../request/prepareRequest';
import type { NormalizedUsage } from '../types';
import { attemptBody } from '../request/sendBody';
import type { CacheWarmer } from './cacheWarmer';

export interface WarmingHooks {
  onAttempt: (prepared: PreparedRequest) => void;
  onAccounted: (modelId: string, prepared: PreparedRequest, usage: NormalizedUsage) => void;
}

/** `refused`: the parameters the model refused so far (ChatEngine.refusedParams). */
export function warmingHooks(warmer: CacheWarmer, settings: () => Settings, refused: (modelId: string) => readonly string[]): WarmingHooks {
  return {
    onAttempt: (prepared) => warmer.wentOn(prepared.sessionId),
    onAccounted: (modelId, prepared, usage) => {
      const refusedParams = refused(modelId);
      const target = { sessionId: prepared.sessionId, modelId, route: prepared.route.id, body: attemptBody(prepared, settings(), refusedParams), refused: new Set(refusedParams), promptTokens: usage.contextTokens };
      warmer.answered(target);
    },
  };
}

/** Warming settings with the defaults (off) when the settings carry none. */
export function warmingSettings(settings: Settings): { enabled: boolean; maxRequests: number } {
  return settings.promptCache?.warming ?? { enabled: false, maxRequests: 3 };
}
