/**
 * The agent regime (issue 31): a long agent session at the ceiling — many large tool outputs (file reads, test
 * runs, searches), small user turns, the same files read again and again — on the prefix cache model. Three rules
 * side by side, each driving the extension's own planTrim and accountUsage:
 *
 * - pruning: pruning in epochs (core/trim/historyTrim.ts trimWithPrunes): old outputs become placeholders only when the cut moves;
 * - drop-only: the same trim with `opencode.historyTrim.pruneToolResults` off;
 * - leading: OpenCode's own rule before our drop-only trim — on every request, outputs older than the newest 40,000
 *   tokens of tool output are replaced by `[Old tool result content cleared]`, when that saves at least 20,000 tokens
 *   (once cleared, an output stays cleared).
 *
 * Figures per rule: user prompts and assistant turns sent (mean per request), context kept (mean prompt tokens),
 * cut moves (requests whose payload is not the previous one plus messages at the end) and mean cache hit.
 */
import { countTextTokens } from '../../cacheModel/valueTokens';
import { PrefixCacheModel } from '../../cacheModel/prefixCache';
import { resolveSettings } from '../../core/config/settings';
import type { Logger } from '../../core/log';
import { accountUsage } from '../../core/request/accountUsage';
import { SizeMemo } from '../../core/trim/messageSize';
import type { WireMessage, WireTool } from '../../core/wire/wireTypes';
import { PromptBlocks } from '../cache/promptBlocks';
import { normalizeUsage } from '../../core/routes/chat/chatChunk';
import { planTrim } from '../../core/trim/planTrim';
import { Calibrations, ConversationStates } from '../../core/trim/trimState';

export interface AgentRegimeSpec {
  title: string;
  seed: number;
  /** Requests in the session (one per user prompt and one per tool round). */
  requests: number;
  window: number;
  maxOutputTokens: number;
  budgetTokens: number;
  /** Tool output per round: uniform in [min, max] tokens. */
  outputTokens: readonly [number, number];
  /** Files the agent reads (a read of one already read supersedes the older read). */
  files: number;
  /** One request in this many brings a new user prompt. */
  userEvery: number;
}

export const AGENT_REGIME: AgentRegimeSpec = {
  title: 'agent session at the ceiling: 2–12K-token tool outputs, a prompt every ~8 requests, 16 files read again and again',
  seed: 31,
  requests: 400,
  window: 200_000,
  maxOutputTokens: 32_000,
  budgetTokens: 128_000,
  outputTokens: [2_000, 12_000],
  files: 16,
  userEvery: 8,
};

export type AgentRuleId = 'pruning' | 'dropOnly' | 'leading';

export interface AgentRuleFigures {
  id: AgentRuleId;
  label: string;
  meanUserPrompts: number;
  meanAssistantTurns: number;
  meanPrompt: number;
  cutMoves: number;
  meanHit: number;
}

export interface AgentRegimeResult {
  spec: AgentRegimeSpec;
  /** Tool output tokens in the whole session, and user prompts. */
  toolOutputTokens: number;
  userPrompts: number;
  rules: AgentRuleFigures[];
}

const quiet: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined };
const MODEL_ID = 'bench-agent';
const LABELS: Record<AgentRuleId, string> = {
  pruning: 'pruning in epochs (ours)',
  dropOnly: 'drop-only (ours, pruning off)',
  leading: "OpenCode's rule on every request (40K protected, ≥ 20K saved), then our drop-only trim",
};
const TOOLS: WireTool[] = [
  { type: 'function', function: { name: 'read_file', description: 'Read a file of the workspace.', parameters: { type: 'object', properties: { filePath: { type: 'string' } } } } },
  { type: 'function', function: { name: 'run_command', description: 'Run a shell command.', parameters: { type: 'object', properties: { command: { type: 'string' } } } } },
];

/** A small deterministic generator (mulberry32), so the session is the same on every run. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Code-like text of about `tokens` o200k tokens (one line ≈ 10 tokens). */
function codeText(tokens: number, seed: number): string {
  const lines: string[] = [];
  for (let i = 0; i < Math.ceil(tokens / 10); i++) lines.push(`  const value${(seed * 31 + i) % 997} = compute(item${i}, ${(seed + i * 7) % 101});`);
  return lines.join('\n');
}

/** The session's full history and where each request ends. */
export function agentSession(spec: AgentRegimeSpec): { messages: WireMessage[]; requestEnds: number[]; toolOutputTokens: number; userPrompts: number } {
  const next = random(spec.seed);
  const messages: WireMessage[] = [
    { role: 'system', content: `You are a coding agent working in a TypeScript repository.\n${codeText(3_000, 1)}` },
    { role: 'user', content: `<environment_info>\n${codeText(1_500, 2)}\n</environment_info>` },
  ];
  const requestEnds: number[] = [];
  let toolOutputTokens = 0;
  let userPrompts = 0;
  for (let r = 0; r < spec.requests; r++) {
    if (r === 0 || next() < 1 / spec.userEvery) {
      if (r > 0) messages.push({ role: 'assistant', content: `Done: the change is in and the tests pass. ${codeText(60, r)}` });
      messages.push({ role: 'user', content: `Next: fix the failing case ${r} in the parser and keep the tests green.` });
      userPrompts++;
    } else {
      const id = `call_${r}`;
      const read = next() < 0.75;
      const tokens = Math.round(spec.outputTokens[0] + next() * (spec.outputTokens[1] - spec.outputTokens[0]));
      const file = Math.floor(next() * spec.files);
      const args = read ? { filePath: `src/parser/part${file}.ts` } : { command: `npm test -- --grep case${r}` };
      messages.push({ role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name: read ? 'read_file' : 'run_command', arguments: JSON.stringify(args) } }] });
      messages.push({ role: 'tool', tool_call_id: id, content: codeText(tokens, read ? file * 1_000 + r : r) });
      toolOutputTokens += tokens;
    }
    requestEnds.push(messages.length);
  }
  return { messages, requestEnds, toolOutputTokens, userPrompts };
}

const LEADING_PROTECT = 40_000;
const LEADING_MIN_SAVED = 20_000;
const LEADING_PLACEHOLDER = '[Old tool result content cleared]';

/** OpenCode's prune, as it runs before every request: once cleared, an output stays cleared (it is marked in its store). */
class LeadingPrune {
  private readonly cleared = new Set<number>();

  constructor(private readonly tokensOf: (m: WireMessage) => number) {}

  apply(messages: readonly WireMessage[]): WireMessage[] {
    let newest = 0;
    const candidates: number[] = [];
    let saved = 0;
    for (let i = messages.length - 1; i >= 0; i--) {
      const m = messages[i];
      if (m.role !== 'tool' || this.cleared.has(i)) continue;
      const tokens = this.tokensOf(m);
      if (newest < LEADING_PROTECT) newest += tokens;
      else {
        candidates.push(i);
        saved += tokens;
      }
    }
    if (saved >= LEADING_MIN_SAVED) for (const i of candidates) this.cleared.add(i);
    return messages.map((m, i) => (m.role === 'tool' && this.cleared.has(i) ? { ...m, content: LEADING_PLACEHOLDER } : m));
  }
}

export function runAgentRegime(spec: AgentRegimeSpec = AGENT_REGIME): AgentRegimeResult {
  const session = agentSession(spec);
  const blocks = new PromptBlocks();
  const rules = (['pruning', 'dropOnly', 'leading'] as const).map((id) => runRule(id, spec, session, blocks));
  return { spec, toolOutputTokens: session.toolOutputTokens, userPrompts: session.userPrompts, rules };
}

function runRule(id: AgentRuleId, spec: AgentRegimeSpec, session: ReturnType<typeof agentSession>, blocks: PromptBlocks): AgentRuleFigures {
  const values = new Map<string, unknown>([['maxInputTokens', spec.budgetTokens], ['historyTrim.pruneToolResults', id === 'pruning']]);
  const settings = resolveSettings((key) => values.get(key), (warning) => {
    throw new Error(`agent regime settings: ${warning}`);
  });
  const limits = { contextWindow: spec.window, maxOutputTokens: spec.maxOutputTokens };
  const state = { log: quiet, calibrations: new Calibrations(), states: new ConversationStates() };
  const memo = new SizeMemo();
  const cache = new PrefixCacheModel();
  const leading = id === 'leading' ? new LeadingPrune((m) => countTextTokens(String(m.content))) : undefined;
  const totals = { users: 0, assistants: 0, prompt: 0, hit: 0, moves: 0 };
  let before: string[] | undefined;
  for (const end of session.requestEnds) {
    const history = session.messages.slice(0, end);
    const input = leading ? leading.apply(history) : history;
    const plan = planTrim(input, TOOLS, { settings, limits, calibration: state.calibrations.factor(MODEL_ID), calibrationSpread: state.calibrations.spread(MODEL_ID), memo, states: state.states, log: quiet });
    const sent = plan.trim.messages;
    const measure = blocks.measureRequest(sent, TOOLS);
    const seen = cache.observeMeasured(plan.sessionId, measure);
    const usage = normalizeUsage({ prompt_tokens: seen.promptTokens, completion_tokens: 0, prompt_tokens_details: { cached_tokens: seen.cachedTokens } });
    if (usage) accountUsage(state, MODEL_ID, plan, usage);
    const bytes = sent.map((m) => JSON.stringify(m));
    if (before && !(bytes.length >= before.length && before.every((b, k) => bytes[k] === b))) totals.moves++;
    before = bytes;
    totals.users += sent.filter((m, i) => m.role === 'user' && i > 1).length;
    totals.assistants += sent.filter((m) => m.role === 'assistant').length;
    totals.prompt += seen.promptTokens;
    totals.hit += seen.promptTokens > 0 ? seen.cachedTokens / seen.promptTokens : 0;
  }
  const n = session.requestEnds.length;
  return { id, label: LABELS[id], meanUserPrompts: totals.users / n, meanAssistantTurns: totals.assistants / n, meanPrompt: totals.prompt / n, cutMoves: totals.moves, meanHit: totals.hit / n };
}

/** The regime as a Markdown table (docs/history-trim.md and the bench's stdout). */
export function agentRegimeTable(result: AgentRegimeResult): string {
  const pct = (x: number): string => `${(100 * x).toFixed(1)}%`;
  const k = (x: number): string => `${(x / 1_000).toFixed(1)}K`;
  const rows = result.rules.map((r) => `| ${r.label} | ${r.meanUserPrompts.toFixed(1)} | ${r.meanAssistantTurns.toFixed(1)} | ${k(r.meanPrompt)} | ${r.cutMoves} | ${pct(r.meanHit)} |`);
  return [
    `Agent regime: ${result.spec.title}; B = ${result.spec.budgetTokens}, ${result.spec.requests} requests, ${result.userPrompts} user prompts, ${k(result.toolOutputTokens)} tokens of tool output.`,
    '',
    '| rule | user prompts sent (mean) | assistant turns sent (mean) | context kept (mean prompt) | cut moves | mean hit |',
    '|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}
