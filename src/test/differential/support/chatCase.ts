/**
 * Chat Completions on the wire (`chat.completion.chunk`s, usage in a trailing choices-less chunk, `[DONE]`),
 * read by `openai`'s `chat.completions.stream(...).finalChatCompletion()`.
 */
import type { Answer } from './answerArb';
import { callBlocks } from './answerArb';
import { sse, tokenCountOf, type Delivered, type RouteCase } from './delivered';
import { openAIOracle } from './sdkClients';

/** OpenAI with details, OpenAI without, DeepSeek's hit/miss split, Kimi's top-level cached_tokens. */
function usageOf(a: Answer): Record<string, unknown> {
  const { prompt, cached, output } = a.counts;
  const base = { prompt_tokens: prompt, completion_tokens: output, total_tokens: prompt + output };
  switch (a.usageShape) {
    case 0: return { ...base, prompt_tokens_details: { cached_tokens: cached }, completion_tokens_details: { reasoning_tokens: 0 } };
    case 1: return base;
    case 2: return { ...base, prompt_cache_hit_tokens: cached, prompt_cache_miss_tokens: prompt - cached };
    default: return { ...base, cached_tokens: cached };
  }
}

export function encodeChat(a: Answer, usage: Record<string, unknown> | undefined = a.usageShape < 0 ? undefined : usageOf(a)): string {
  const chunk = (delta: Record<string, unknown>, finish: string | null = null): string =>
    sse({ id: 'chatcmpl-diff', object: 'chat.completion.chunk', created: 1, model: 'diff-chat', choices: [{ index: 0, delta, finish_reason: finish }] });
  const frames = [chunk({ role: 'assistant', content: '' })];
  for (const block of a.blocks) {
    if (block.kind === 'thinking') frames.push(...block.pieces.map((p) => chunk({ reasoning_content: p })));
    else if (block.kind === 'text') frames.push(...block.pieces.map((p) => chunk({ content: p })));
  }
  callBlocks(a).forEach((call, index) => {
    call.fragments.forEach((arguments_, k) => {
      const head = k === 0 ? { id: call.id, type: 'function', function: { name: call.name, arguments: arguments_ } } : { function: { arguments: arguments_ } };
      frames.push(chunk({ tool_calls: [{ index, ...head }] }));
    });
  });
  frames.push(chunk({}, callBlocks(a).length ? 'tool_calls' : a.finish));
  if (usage) frames.push(sse({ id: 'chatcmpl-diff', object: 'chat.completion.chunk', created: 1, model: 'diff-chat', choices: [], usage }));
  return frames.join('') + 'data: [DONE]\n\n';
}

/** The SDK's usage object read the way docs/usage.md reads each shape. */
export function chatUsage(raw: Record<string, unknown> | undefined): Delivered['usage'] {
  if (!raw || Object.keys(raw).length === 0) return undefined; // empty usage is no usage
  const details = (raw.prompt_tokens_details ?? {}) as Record<string, unknown>;
  const cached = tokenCountOf(details.cached_tokens) || tokenCountOf(raw.cached_tokens) || tokenCountOf(raw.prompt_cache_hit_tokens);
  return { context: tokenCountOf(raw.prompt_tokens), cached, cacheWrite: 0, completion: tokenCountOf(raw.completion_tokens) };
}

export async function chatOracle(origin: string): Promise<Delivered> {
  const stream = openAIOracle(origin).chat.completions.stream({ model: 'diff-chat', messages: [{ role: 'user', content: 'hi' }], stream_options: { include_usage: true } });
  // The SDK keeps only the newest `reasoning_content` fragment on the final message (an unknown field is
  // assigned, not appended): the thinking is what its parsed chunks carried (docs/routes.md, differential tests).
  let thinking = '';
  stream.on('chunk', (chunk) => {
    for (const choice of chunk.choices) thinking += (choice.delta as { reasoning_content?: string }).reasoning_content ?? '';
  });
  const final = await stream.finalChatCompletion();
  const message = final.choices[0].message;
  return {
    text: message.content ?? '',
    thinking,
    calls: (message.tool_calls ?? []).map((c) => (c.type === 'function' ? { name: c.function.name, input: JSON.parse(c.function.arguments) } : { name: '?', input: c })),
    usage: chatUsage(final.usage as unknown as Record<string, unknown> | undefined),
  };
}

export const CHAT_CASE: RouteCase = { route: 'chat', usageShapes: 4, noUsage: true, encode: (a) => encodeChat(a), oracle: chatOracle };
