/**
 * A whole benchmark session from a regime and its seed: system prompt, tools and anchor task, history
 * pre-filled to just under the budget, then one step of growth per request. Deterministic: no data
 * files, no Math.random. Request i sends the first `requestEnds[i]` messages, so every request is a
 * prefix-extension of the one before (as VS Code re-supplies the whole history each turn).
 */
import { SeededRandom } from '../../test/fixtures/textSamples';
import type { WireMessage, WireTool } from '../../core/wire/wireTypes';
import type { ReplayRequest } from '../../core/replay/replayFile';
import type { RegimeSpec } from './regimes';
import { generateTools, nextStep, userMessage, type StepContext } from './sessionSteps';
import { TextSource, type CharsPerToken } from './textOfTokens';
import { splitHistory } from '../../core/trim/cut';

export interface SessionSizer {
  /** Tokens of one message as the provider counts them (the cache model's o200k count). */
  messageTokens(message: WireMessage): number;
  toolsTokens(tools: readonly WireTool[]): number;
}

export interface SessionStats {
  /** Messages of request 0 (the pre-filled history, anchor and system included). */
  prefillMessages: number;
  prefillTokens: number;
  prefillBytes: number;
  /** Mean size of the droppable units of request 0. */
  meanUnitTokens: number;
  /** Mean history growth per request over the session. */
  meanGrowthTokens: number;
  headTokens: number;
}

export interface BenchSession {
  regime: RegimeSpec;
  tools: WireTool[];
  messages: WireMessage[];
  requestEnds: number[];
  stats: SessionStats;
}

export function generateSession(regime: RegimeSpec, sizer: SessionSizer, ratios: CharsPerToken): BenchSession {
  const rng = new SeededRandom(regime.seed);
  const text = new TextSource(ratios, regime.seed);
  const tools = generateTools(regime, text);
  let callNumber = 0;
  const ctx: StepContext = { regime, rng, text, tools: tools.map((t) => t.function.name), nextCallId: () => `call_${regime.id}_${++callNumber}` };

  const messages: WireMessage[] = [
    { role: 'system', content: text.text('mixed', regime.systemTokens) },
    userMessage(ctx, regime.anchorTokens),
  ];
  let total = sizer.toolsTokens(tools) + messages.reduce((sum, m) => sum + sizer.messageTokens(m), 0);
  const headTokens = total;
  const currentTurn = userMessage(ctx, 120);
  // Pre-fill to about two requests of growth under the budget: the session reaches the ceiling at once.
  // In the reported units when the endpoint's count drifts (regimes.reportScale): the budget is in those.
  const fillTo = (regime.budgetTokens - 2 * regime.growthTokens) / (regime.reportDrift?.center ?? 1) - sizer.messageTokens(currentTurn);
  for (;;) {
    const step = nextStep(ctx, regime.unitTokens);
    const stepTokens = step.reduce((sum, m) => sum + sizer.messageTokens(m), 0);
    if (total + stepTokens > fillTo) break;
    messages.push(...step);
    total += stepTokens;
  }
  messages.push(currentTurn);
  total += sizer.messageTokens(currentTurn);

  const prefill = { messages: messages.length, tokens: total };
  const requestEnds = [messages.length];
  for (let i = 1; i < regime.requests; i++) {
    const step = nextStep(ctx, regime.growthTokens);
    messages.push(...step);
    total += step.reduce((sum, m) => sum + sizer.messageTokens(m), 0);
    requestEnds.push(messages.length);
  }
  const stats: SessionStats = {
    prefillMessages: prefill.messages,
    prefillTokens: prefill.tokens,
    prefillBytes: Buffer.byteLength(JSON.stringify(messages.slice(0, prefill.messages))) + Buffer.byteLength(JSON.stringify(tools)),
    meanUnitTokens: meanUnitTokens(messages.slice(0, prefill.messages), sizer),
    meanGrowthTokens: (total - prefill.tokens) / Math.max(1, regime.requests - 1),
    headTokens,
  };
  return { regime, tools, messages, requestEnds, stats };
}

export function requestAt(session: BenchSession, i: number): ReplayRequest {
  return { messages: session.messages.slice(0, session.requestEnds[i]), tools: session.tools };
}

function meanUnitTokens(messages: readonly WireMessage[], sizer: SessionSizer): number {
  const units = splitHistory(messages).middle;
  let tokens = 0;
  for (const unit of units) for (let i = unit.start; i < unit.end; i++) tokens += sizer.messageTokens(messages[i]);
  return units.length ? tokens / units.length : 0;
}
