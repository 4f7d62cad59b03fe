/**
 * The shape of model data, whatever it came from (the bundled snapshot, models.dev's live answer): per OpenCode
 * endpoint, per model id, what the model is. Produced only by fromModelsDev.ts, so both sources follow one rule.
 */
import type { RouteId } from '../routeId';
import type { ReasoningControl } from '../routes/select/reasoningControl';

/** USD per 1M tokens. Cache prices are undefined when not published. */
export interface PriceSet {
  input: number;
  output: number;
  cacheRead?: number;
  cacheWrite?: number;
}

/** A model's prices; `tier` applies to a whole request whose prompt is above `above` tokens (long-context pricing). */
export interface Prices extends PriceSet {
  above?: number;
  tier?: PriceSet;
}

export type ModelStatus = 'preview' | 'deprecated';

export interface ModelCard {
  name?: string;
  route: RouteId;
  contextWindow?: number;
  /** The most prompt tokens it accepts (models.dev `limit.input`), present only when below the window. */
  inputLimit?: number;
  maxOutputTokens?: number;
  imageInput?: boolean;
  /** Present when the model reasons. */
  reasoningControl?: ReasoningControl;
  /** Chat: the model's reasoning_content must be echoed on assistant turns (400 otherwise). */
  echoReasoningContent?: boolean;
  /** The model refuses `temperature`. */
  noTemperature?: boolean;
  prices?: Prices;
  /** OpenCode's free tier: usable only from the OpenCode app. */
  free?: boolean;
  status?: ModelStatus;
  /** Its release date (YYYY-MM-DD): which model of a family is the newest (models/estimate.ts). */
  released?: string;
}

export interface ModelData {
  /** The date of the data (models.dev commit date, or the day it was fetched). */
  date: string;
  /** Where it came from, for the log and the report ("models.dev f3fc6922", "https://models.dev/api.json"). */
  source: string;
  zen: Readonly<Record<string, ModelCard>>;
  go: Readonly<Record<string, ModelCard>>;
}
