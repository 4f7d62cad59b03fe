/**
 * The provider's usage for a replayed request on a given route, from the cache model that route's provider
 * uses: an automatic exact-prefix cache for chat and Responses (prefixCache.ts, over the sent history), and
 * Anthropic's breakpoint cache for Messages (breakpointCache.ts, over the Messages body our route builds,
 * breakpoints included). The cut is the route-neutral trim's either way; only the cache differs.
 */
import { BreakpointCache, type MessagesPrompt } from '../cacheModel/breakpointCache';
import { PrefixCacheModel } from '../cacheModel/prefixCache';
import { anthropicUsage } from '../core/routes/messages/messagesStream';
import { routeById } from '../core/routes/registry/registry';
import { responsesUsage } from '../core/routes/responses/responsesReader';
import type { RouteId } from '../core/routeId';
import type { NormalizedUsage } from '../core/types';
import { normalizeUsage } from '../core/routes/chat/chatChunk';
import { type TrimPlan } from '../core/trim/planTrim';

export class RouteCaches {
  private readonly prefix = new PrefixCacheModel();
  private readonly breakpoints = new BreakpointCache();

  /** The usage the provider of route `api` would report for this plan's request. */
  observe(plan: TrimPlan, modelId: string, api: RouteId): NormalizedUsage | undefined {
    const observed = this.prefix.observe(plan.sessionId, { messages: plan.trim.messages, tools: plan.tools });
    if (api === 'messages') return this.messagesUsage(plan, modelId, observed.promptTokens);
    if (api === 'responses') {
      return responsesUsage({ input_tokens: observed.promptTokens, input_tokens_details: { cached_tokens: observed.cachedTokens }, output_tokens: 0, total_tokens: observed.promptTokens });
    }
    return normalizeUsage({ prompt_tokens: observed.promptTokens, completion_tokens: 0, prompt_tokens_details: { cached_tokens: observed.cachedTokens } });
  }

  /**
   * The breakpoint model decides which share of the prompt is read, written and plain input; the total is the
   * prefix model's count of the same history, so the context (and with it calibration and the overflow sensor,
   * hence the cut) is the same on every route and only the cache differs.
   */
  private messagesUsage(plan: TrimPlan, modelId: string, total: number): NormalizedUsage | undefined {
    const body = routeById('messages').buildBody({ modelId, messages: plan.trim.messages, tools: plan.tools, sessionId: plan.sessionId });
    const observed = this.breakpoints.observe(plan.sessionId, body as unknown as MessagesPrompt);
    if (!observed.ok) throw new Error(`the Messages body carried ${observed.breakpoints} cache breakpoints (at most 4)`);
    const share = (tokens: number) => (observed.promptTokens > 0 ? Math.round((tokens / observed.promptTokens) * total) : 0);
    const read = share(observed.usage.cache_read_input_tokens);
    const write = Math.min(total - read, share(observed.usage.cache_creation_input_tokens));
    return anthropicUsage({ input_tokens: total - read - write, cache_read_input_tokens: read, cache_creation_input_tokens: write, output_tokens: 0 });
  }
}
