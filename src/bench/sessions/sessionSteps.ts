/**
 * The building blocks of a generated agent session: tool definitions, and the two kinds of step an
 * agent session grows by — a tool step (an assistant tool-call message plus one result per call) and a
 * text step (an assistant answer, then the user's next message).
 */
import type { SeededRandom } from '../../test/fixtures/textSamples';
import type { WireMessage, WireTool, WireToolCall } from '../../core/wire/wireTypes';
import type { RegimeSpec } from './regimes';
import { pickWeighted, type TextSource } from './textOfTokens';

const TOOL_VERBS = ['read', 'search', 'list', 'run', 'edit', 'grep', 'fetch', 'find', 'get', 'create', 'apply', 'open'];
const TOOL_NOUNS = ['file', 'files', 'tests', 'symbol', 'usages', 'diagnostics', 'terminal', 'notebook', 'commit', 'issue', 'page', 'task'];
const PARAMETERS_PER_TOOL = 4;
/** Share of a tool's tokens spent on its schema's parameter descriptions (the rest is the description). */
const SCHEMA_SHARE = 0.3;

export function toolNames(count: number): string[] {
  const names: string[] = [];
  for (let i = 0; names.length < count; i++) {
    names.push(`${TOOL_VERBS[i % TOOL_VERBS.length]}_${TOOL_NOUNS[Math.floor(i / TOOL_VERBS.length) % TOOL_NOUNS.length]}${i >= TOOL_VERBS.length * TOOL_NOUNS.length ? i : ''}`);
  }
  // Sorted by name, as toWireTools sends them, so the ChatMessage form converts to the same bytes.
  return names.sort();
}

export function generateTools(regime: RegimeSpec, source: TextSource): WireTool[] {
  const perTool = regime.toolTokens / regime.toolCount;
  return toolNames(regime.toolCount).map((name) => {
    const properties: Record<string, object> = {};
    for (let p = 0; p < PARAMETERS_PER_TOOL; p++) {
      properties[`arg${p}`] = { type: p % 2 ? 'number' : 'string', description: source.text('english', (perTool * SCHEMA_SHARE) / PARAMETERS_PER_TOOL) };
    }
    return {
      type: 'function',
      function: {
        name,
        description: source.text('english', perTool * (1 - SCHEMA_SHARE)),
        parameters: { type: 'object', properties, required: ['arg0'] },
      },
    };
  });
}

/** A size around `mean`: triangular on [0.1 × mean, 1.9 × mean], so units vary the way real ones do. */
export function sizeAround(rng: SeededRandom, mean: number): number {
  return Math.round(mean * (0.1 + 0.9 * (rng.next() + rng.next())));
}

export interface StepContext {
  regime: RegimeSpec;
  rng: SeededRandom;
  text: TextSource;
  tools: readonly string[];
  nextCallId: () => string;
}

/** An assistant tool-call message and one result per call, about `tokens` in all. */
export function toolStep(ctx: StepContext, tokens: number): WireMessage[] {
  const { rng, regime } = ctx;
  const calls = rng.int(regime.parallelCalls[0], regime.parallelCalls[1]);
  const toolCalls: WireToolCall[] = [];
  for (let k = 0; k < calls; k++) {
    const args = { arg0: `src/${ctx.text.text('typescript', 6).replace(/\W+/g, '_')}.ts`, arg1: rng.int(1, 900) };
    toolCalls.push({ id: ctx.nextCallId(), type: 'function', function: { name: rng.pick(ctx.tools), arguments: JSON.stringify(args) } });
  }
  const preamble = rng.chance(0.3) ? ctx.text.text(pickWeighted(rng, regime.assistantText), 40) : null;
  const messages: WireMessage[] = [{ role: 'assistant', content: preamble, tool_calls: toolCalls }];
  const resultTokens = Math.max(20, tokens - 30 * calls);
  for (const call of toolCalls) {
    const share = Math.max(10, Math.round((resultTokens / calls) * (0.5 + rng.next())));
    messages.push({ role: 'tool', tool_call_id: call.id, content: ctx.text.text(pickWeighted(rng, regime.toolOutput), share) });
  }
  return messages;
}

/** An assistant answer followed by the user's next message, about `tokens` in all. */
export function textStep(ctx: StepContext, tokens: number): WireMessage[] {
  const userTokens = Math.max(20, Math.round(tokens * 0.15));
  return [
    { role: 'assistant', content: ctx.text.text(pickWeighted(ctx.rng, ctx.regime.assistantText), Math.max(20, tokens - userTokens)) },
    userMessage(ctx, userTokens),
  ];
}

export function userMessage(ctx: StepContext, tokens: number): WireMessage {
  return { role: 'user', content: ctx.text.text(pickWeighted(ctx.rng, ctx.regime.userText), tokens) };
}

/** One step of the session: mostly tool steps, a text step (with a user message) one time in `userEvery`. */
export function nextStep(ctx: StepContext, meanTokens: number): WireMessage[] {
  const tokens = sizeAround(ctx.rng, meanTokens);
  return ctx.rng.chance(1 / ctx.regime.userEvery) ? textStep(ctx, tokens) : toolStep(ctx, tokens);
}
