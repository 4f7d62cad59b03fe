/**
 * The extension as activate() wires it (composeExtension), except that the engine's timing is injected:
 * waits between attempts are recorded and skipped, and the idle timeout can be shorter than the 5 s users
 * can set. Use activateAgainst when real waits matter; use this when a test would otherwise sleep.
 */
import { ChatEngine, type EngineTiming } from '../../core/request/chatEngine';
import { activateAgainst, ask, user, type ActivatedExtension } from './activatedExtension';

export interface TimedProvider extends ActivatedExtension {
  engine: ChatEngine;
  /** Every wait the engine asked for between attempts, in ms. */
  delays: number[];
}

/** Records the wait and returns at once; still rejects when the request was already cancelled. */
function recordingSleep(delays: number[]): EngineTiming['sleep'] {
  return async (ms, signal) => {
    delays.push(ms);
    if (signal.aborted) throw Object.assign(new Error('cancelled'), { name: 'AbortError' });
  };
}

export function providerWithTiming(server: { url: string }, settings: Record<string, unknown> = {}, timing: Partial<EngineTiming> = {}): TimedProvider {
  const delays: number[] = [];
  const ext = activateAgainst(server, settings, undefined, { sleep: recordingSleep(delays), random: () => 0.5, ...timing });
  return { ...ext, engine: ext.engine as ChatEngine, delays };
}

/** Runs one request that must fail and returns what the provider threw. */
export async function askError(ext: ActivatedExtension, modelId: string, prompt: string): Promise<Error> {
  try {
    await ask(ext, modelId, [user(prompt)]);
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the request to fail');
}
