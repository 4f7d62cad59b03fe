/**
 * The session shapes the benchmark compares policies on. Sizes are in o200k tokens (the cache model's
 * unit). (a) mirrors the production session the leading extension's rule was measured on; (b) and (c) are the two regimes the leading
 * extension published simulation figures for; (d) and (e) stress the estimators (JSON and CJK are where
 * chars/4 is furthest from the real count); (f) is a long agent turn and (g) a drifting calibration.
 */
import type { SampleKind } from '../../test/fixtures/textSamples';

export type Weights = Partial<Record<SampleKind, number>>;

export interface RegimeSpec {
  id: string;
  title: string;
  seed: number;
  /** Requests at the ceiling after the pre-fill. */
  requests: number;
  window: number;
  maxOutputTokens: number;
  /** `opencode.maxInputTokens`: the token budget B every policy trims to. */
  budgetTokens: number;
  systemTokens: number;
  toolCount: number;
  toolTokens: number;
  anchorTokens: number;
  /** Mean size of a droppable unit in the pre-filled history. */
  unitTokens: number;
  /** Mean growth of the history per request at the ceiling. */
  growthTokens: number;
  /** On average one request in this many brings a new user message (the others are tool steps). */
  userEvery: number;
  /** Tool calls per assistant tool-call message (a parallel call when more than one). */
  parallelCalls: readonly [number, number];
  toolOutput: Weights;
  assistantText: Weights;
  userText: Weights;
  /** Run the sweep of our settings on this regime. */
  sweep: boolean;
  /** Also run the main rivals with the text-only token count (a second session pre-filled by that count). */
  textCount: boolean;
  /**
   * The endpoint's tokenizer differs from o200k by a factor that drifts over the session: reported prompt
   * (and cached) tokens are the cache model's times center + amplitude × sin(2πi / period) ± jitter.
   * Everything is measured in those reported units, so every policy sees the same token counts.
   */
  reportDrift?: ReportDrift;
}

export interface ReportDrift {
  center: number;
  amplitude: number;
  periodRequests: number;
  jitter: number;
}

/** The reported-count factor of request i (1 without drift). Deterministic: a hash of i, no Math.random. */
export function reportScale(regime: RegimeSpec, i: number): number {
  const drift = regime.reportDrift;
  if (!drift) return 1;
  const noise = (((Math.imul(i + 1, 2654435761) >>> 0) % 2001) / 1000 - 1) * drift.jitter;
  return drift.center + drift.amplitude * Math.sin((2 * Math.PI * i) / drift.periodRequests) + noise;
}

/**
 * The budget B the leading extension uses for a model: min(0.7 × window, window − max output − 2,048). Every
 * policy gets that budget, so the comparison is at the same ceiling.
 */
function onModel(window: number, maxOutputTokens: number): Pick<RegimeSpec, 'window' | 'maxOutputTokens' | 'budgetTokens'> {
  return { window, maxOutputTokens, budgetTokens: Math.floor(Math.min(0.7 * window, window - maxOutputTokens - 2_048)) };
}

const CODING_TOOL_OUTPUT: Weights = { typescript: 4, python: 2, english: 2, jsonPretty: 1, jsonMinified: 1 };
const CODING_ASSISTANT: Weights = { mixed: 2, english: 2 };
const ENGLISH_USER: Weights = { english: 1 };

/** What every regime but (e) shares: the production session's model (deepseek-v4.1-flash, B = 613,952) and prompt. */
const PRODUCTION = {
  requests: 300,
  ...onModel(1_000_000, 384_000),
  // System prompt + tools ≈ 70K: the production session's misses were pinned at cachedTokens = 69,888 (system + tools).
  systemTokens: 12_000,
  toolCount: 48,
  toolTokens: 58_000,
  anchorTokens: 400,
  userEvery: 6,
  toolOutput: CODING_TOOL_OUTPUT,
  assistantText: CODING_ASSISTANT,
  userText: ENGLISH_USER,
  sweep: false,
  // The acceptance-bar regimes (b, c, d) are also run with the text-only count.
  textCount: true,
};

/** What a regime on the production session must state: who it is and how its history grows. */
type ProductionRegime = Pick<RegimeSpec, 'id' | 'title' | 'seed' | 'unitTokens' | 'growthTokens' | 'parallelCalls'> & Partial<RegimeSpec>;

/** A regime that differs from the production session only where it says so. */
const likeProduction = (differences: ProductionRegime): RegimeSpec => ({ ...PRODUCTION, ...differences });

// One line a concern, in the same order for every regime: who it is; how its history grows; what its text is
// made of; which runs it gets.
export const REGIMES: readonly RegimeSpec[] = [
  likeProduction({
    id: 'a', title: 'production: ~750 messages, ~1.4K growth', seed: 4001,
    unitTokens: 1_550, growthTokens: 1_330, parallelCalls: [1, 2],
    sweep: true, textCount: false,
  }),
  likeProduction({
    id: 'b', title: '~2.7K-token units, ~1K growth', seed: 4002,
    unitTokens: 2_950, growthTokens: 1_000, parallelCalls: [1, 1],
  }),
  likeProduction({
    id: 'c', title: '~800-token units, ~1K growth', seed: 4003,
    unitTokens: 850, growthTokens: 950, parallelCalls: [1, 1],
  }),
  likeProduction({
    id: 'd', title: 'tool-heavy: parallel calls, JSON output, ~3K growth', seed: 4004,
    unitTokens: 3_150, growthTokens: 3_000, userEvery: 10, parallelCalls: [2, 4],
    toolOutput: { jsonPretty: 3, jsonMinified: 3, typescript: 1 }, assistantText: { mixed: 1 },
    sweep: true,
  }),
  {
    id: 'e', title: 'CJK-heavy: Chinese chat and docs, ~1K growth, 256K-window model', seed: 4005,
    // A 256K-window model (Kimi/GLM/Qwen class) with 32K max output (B = 183,500) and a smaller prompt.
    requests: 300, ...onModel(262_144, 32_768),
    systemTokens: 6_000, toolCount: 16, toolTokens: 14_000, anchorTokens: 400,
    unitTokens: 1_100, growthTokens: 1_000, userEvery: 4, parallelCalls: [1, 2],
    toolOutput: { chinese: 5, typescript: 1, jsonPretty: 1 }, assistantText: { chinese: 4, mixed: 1 }, userText: { chinese: 1 },
    // At this budget both the 32K and the 64K step are capped at 10% of B (18,350): a sweep shows nothing new.
    sweep: false, textCount: false,
  },
  likeProduction({
    id: 'f', title: 'long agent turn: one prompt, 300 tool rounds, ~2.5K growth', seed: 4006,
    // No user message after the current prompt: every request adds a tool round to the current turn, which
    // outgrows the budget on its own (~750K of rounds), so its oldest rounds must go too.
    unitTokens: 1_600, growthTokens: 2_500, userEvery: 1_000_000, parallelCalls: [1, 3],
    toolOutput: { ...CODING_TOOL_OUTPUT, jsonPretty: 2 },
    textCount: false,
  }),
  likeProduction({
    id: 'g', title: 'calibration drift: mixed CJK/English, reported count 1.22–1.34 × o200k', seed: 4007,
    unitTokens: 1_500, growthTokens: 1_200, userEvery: 5, parallelCalls: [1, 2],
    toolOutput: { typescript: 2, english: 2, chinese: 2, jsonPretty: 1 }, assistantText: { mixed: 2, chinese: 1 }, userText: { english: 1, chinese: 1 },
    textCount: false,
    // Crosses the 0.05 rounding edges 1.25 and 1.30 several times, with request-to-request jitter.
    reportDrift: { center: 1.28, amplitude: 0.06, periodRequests: 150, jitter: 0.008 },
  }),
];

export function regimeById(id: string): RegimeSpec {
  const regime = REGIMES.find((r) => r.id === id);
  if (!regime) throw new Error(`unknown regime ${id}`);
  return regime;
}
