/**
 * The session shapes the benchmark compares policies on. Sizes are in o200k tokens (the cache model's
 * unit). (a) mirrors the production session the leading extension's rule was measured on; (b) and (c) are the two regimes the leading
 * extension published simulation figures for; (d) and (e) stress the estimators (JSON and CJK are where
 * chars/4 is furthest from the real count); (f) is a long agent turn and (g) a drifting calibration (issue 11).
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

const PRODUCTION_WINDOW = 1_000_000;
const PRODUCTION_MAX_OUTPUT = 384_000;
/** min(0.7 × 1M, 1M − 384K − 2,048): the budget of the production deepseek-v4.1-flash session. */
export const PRODUCTION_BUDGET = 613_952;

const CODING_TOOL_OUTPUT: Weights = { typescript: 4, python: 2, english: 2, jsonPretty: 1, jsonMinified: 1 };
const CODING_ASSISTANT: Weights = { mixed: 2, english: 2 };
const ENGLISH_USER: Weights = { english: 1 };

const atProductionCeiling = {
  requests: 300,
  window: PRODUCTION_WINDOW,
  maxOutputTokens: PRODUCTION_MAX_OUTPUT,
  budgetTokens: PRODUCTION_BUDGET,
  // System prompt + tools ≈ 70K: the production session's misses were pinned at cachedTokens = 69,888 (system + tools).
  systemTokens: 12_000,
  toolCount: 48,
  toolTokens: 58_000,
  anchorTokens: 400,
  userEvery: 6,
  sweep: false,
  // The acceptance-bar regimes (b, c, d) are also run with the text-only count.
  textCount: true,
};

export const REGIMES: readonly RegimeSpec[] = [
  {
    ...atProductionCeiling,
    id: 'a',
    title: 'production: ~750 messages, ~1.4K growth',
    seed: 4001,
    unitTokens: 1_550,
    growthTokens: 1_330,
    parallelCalls: [1, 2],
    toolOutput: CODING_TOOL_OUTPUT,
    assistantText: CODING_ASSISTANT,
    userText: ENGLISH_USER,
    sweep: true,
    textCount: false,
  },
  {
    ...atProductionCeiling,
    id: 'b',
    title: '~2.7K-token units, ~1K growth',
    seed: 4002,
    unitTokens: 2_950,
    growthTokens: 1_000,
    parallelCalls: [1, 1],
    toolOutput: CODING_TOOL_OUTPUT,
    assistantText: CODING_ASSISTANT,
    userText: ENGLISH_USER,
  },
  {
    ...atProductionCeiling,
    id: 'c',
    title: '~800-token units, ~1K growth',
    seed: 4003,
    unitTokens: 850,
    growthTokens: 950,
    parallelCalls: [1, 1],
    toolOutput: CODING_TOOL_OUTPUT,
    assistantText: CODING_ASSISTANT,
    userText: ENGLISH_USER,
  },
  {
    ...atProductionCeiling,
    id: 'd',
    title: 'tool-heavy: parallel calls, JSON output, ~3K growth',
    seed: 4004,
    unitTokens: 3_150,
    growthTokens: 3_000,
    userEvery: 10,
    parallelCalls: [2, 4],
    toolOutput: { jsonPretty: 3, jsonMinified: 3, typescript: 1 },
    assistantText: { mixed: 1 },
    userText: ENGLISH_USER,
    sweep: true,
  },
  {
    id: 'e',
    title: 'CJK-heavy: Chinese chat and docs, ~1K growth, 256K-window model',
    seed: 4005,
    requests: 300,
    // A 256K-window model (Kimi/GLM/Qwen class) with 32K max output; B = min(0.7 × 262,144, 262,144 − 32,768 −
    // 2,048) = 183,500 is what the leading extension would use there, so all policies get that budget.
    window: 262_144,
    maxOutputTokens: 32_768,
    budgetTokens: 183_500,
    systemTokens: 6_000,
    toolCount: 16,
    toolTokens: 14_000,
    anchorTokens: 400,
    unitTokens: 1_100,
    growthTokens: 1_000,
    userEvery: 4,
    parallelCalls: [1, 2],
    toolOutput: { chinese: 5, typescript: 1, jsonPretty: 1 },
    assistantText: { chinese: 4, mixed: 1 },
    userText: { chinese: 1 },
    // At this budget both the 32K and the 64K step are capped at 10% of B (18,350): a sweep shows nothing new.
    sweep: false,
    textCount: false,
  },
  {
    ...atProductionCeiling,
    id: 'f',
    title: 'long agent turn: one prompt, 300 tool rounds, ~2.5K growth',
    seed: 4006,
    unitTokens: 1_600,
    growthTokens: 2_500,
    // No user message after the current prompt: every request adds a tool round to the current turn, which
    // outgrows the budget on its own (~750K of rounds), so its oldest rounds must go too.
    userEvery: 1_000_000,
    parallelCalls: [1, 3],
    toolOutput: { ...CODING_TOOL_OUTPUT, jsonPretty: 2 },
    assistantText: CODING_ASSISTANT,
    userText: ENGLISH_USER,
    textCount: false,
  },
  {
    ...atProductionCeiling,
    id: 'g',
    title: 'calibration drift: mixed CJK/English, reported count 1.22–1.34 × o200k',
    seed: 4007,
    unitTokens: 1_500,
    growthTokens: 1_200,
    userEvery: 5,
    parallelCalls: [1, 2],
    toolOutput: { typescript: 2, english: 2, chinese: 2, jsonPretty: 1 },
    assistantText: { mixed: 2, chinese: 1 },
    userText: { english: 1, chinese: 1 },
    textCount: false,
    // Crosses the 0.05 rounding edges 1.25 and 1.30 several times, with request-to-request jitter.
    reportDrift: { center: 1.28, amplitude: 0.06, periodRequests: 150, jitter: 0.008 },
  },
];

export function regimeById(id: string): RegimeSpec {
  const regime = REGIMES.find((r) => r.id === id);
  if (!regime) throw new Error(`unknown regime ${id}`);
  return regime;
}
