/** VS Code's sampling options → the field names a route's format uses. Absent or invalid values are not sent. */
import type { SamplingOptions } from './route';

export function samplingFields(options: SamplingOptions | undefined, names: { maxTokens: string; stop: boolean }, outputRoom?: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!options) return out;
  if (typeof options.temperature === 'number') out.temperature = options.temperature;
  if (typeof options.top_p === 'number') out.top_p = options.top_p;
  if (typeof options.max_tokens === 'number' && options.max_tokens > 0) out[names.maxTokens] = withinRoom(Math.floor(options.max_tokens), outputRoom);
  if (names.stop && options.stop?.length) out.stop = options.stop;
  return out;
}

/** A max output the body sends, never above what the window leaves (BodyInput.outputRoom, core/trim/budget.ts). */
export function withinRoom(max: number, outputRoom: number | undefined): number {
  return outputRoom !== undefined && outputRoom > 0 ? Math.min(max, outputRoom) : max;
}
