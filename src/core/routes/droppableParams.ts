/**
 * The request parameters we add ourselves and may leave out for a model that refuses them (core/request/sendBody.ts);
 * saved refusals are validated against this list (core/request/savedRecords.ts).
 *
 * Chat's names first; then the native routes' own (Responses max_output_tokens/include/reasoning, Messages
 * stop_sequences); then the thinking-effort fields (sendBody.ts), so a level a model refuses is dropped too; then the
 * cache lifetimes (routes/requestParts.ts: `prompt_cache_retention`, and `ttl` inside Messages' cache_control markers).
 */
export const DROPPABLE_PARAMS = ['temperature', 'top_p', 'max_tokens', 'stop', 'tool_choice', 'stream_options', 'reasoning_content', 'max_output_tokens', 'stop_sequences', 'include', 'reasoning_effort', 'reasoning', 'thinkingConfig', 'thinking', 'output_config', 'prompt_cache_retention', 'ttl'] as const;
export type DroppableParam = (typeof DROPPABLE_PARAMS)[number];
