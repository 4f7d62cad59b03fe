/** Public surface of the fake OpenCode server, for tests, benchmarks and the replay tool. */
export * from './server';
export { PrefixCacheModel, CACHE_GRANULARITY_TOKENS, PER_MESSAGE_OVERHEAD_TOKENS } from '../cacheModel/prefixCache';
export type { CacheObservation, PromptBody, PromptMeasure } from '../cacheModel/prefixCache';
export { buildUsage, type UsageCounts } from './usageShapes';
export { DEFAULT_MODELS } from './models';
export { countTextTokens, TOKENS_PER_IMAGE } from '../cacheModel/valueTokens';
