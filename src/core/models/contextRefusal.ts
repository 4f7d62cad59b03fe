/**
 * The endpoint's "the prompt is too long" answers, in every provider's wording: whether an error is one, and the
 * window it names when it names one (OpenAI's "Your input exceeds the context window of this model" names none).
 * What the engine learns from them is learnedLimits.ts.
 */
import { MIN_CONTEXT_WINDOW } from './learnedLimits';

/**
 * Providers' "the prompt is too long" wordings that name the window (or the input limit), the number captured.
 * Anthropic's "input length and `max_tokens` exceed context limit: N + M > L" names L; Gemini's "input token count
 * (N) exceeds the maximum number of tokens allowed (M)" names M (its input limit, the safe side as a window).
 */
const LIMIT_PATTERNS = [
  /maximum context length is\s*([\d,_]+)\s*tokens/i,
  /context(?: window| length)?(?: limit)? (?:of|is)\s*([\d,_]+)\s*tokens/i,
  /prompt is too long:\s*[\d,_]+\s*tokens\s*>\s*([\d,_]+)\s*maximum/i,
  /exceeds? (?:the )?(?:model'?s? )?(?:maximum )?context (?:length|window)(?: of)?\s*([\d,_]+)/i,
  /exceed context limit:\s*[\d,_]+\s*\+\s*[\d,_]+\s*>\s*([\d,_]+)/i,
  /input token count\s*\(?[\d,_]+\)?\s*exceeds the maximum number of tokens allowed\s*\(?([\d,_]+)\)?/i,
  /too large for model with\s*([\d,_]+)\s*maximum context length/i,
  /exceeds the available context size\s*\(([\d,_]+)\s*tokens\)/i,
  /maximum prompt length is\s*([\d,_]+)/i,
  /max_new_tokens`?\s*must be <=\s*([\d,_]+)/i,
];

/**
 * Any provider's wording for "the request is too long for the window" (with or without a number): OpenAI-style
 * "maximum context length", Anthropic's "prompt is too long" and "… exceed context limit", Gemini's "input token
 * count … exceeds the maximum number of tokens allowed", llama.cpp's "available context size", TGI's
 * "max_new_tokens must be <=", xAI's "maximum prompt length", Bedrock's "input is too long". The engine re-trims
 * once on any of them (core/request/userFacingError.ts isContextLengthMessage reads this).
 */
const CONTEXT_LENGTH_WORDING = new RegExp(
  [
    'context[ _-]?length', 'context window', 'maximum context', 'too many tokens', 'prompt is too long', 'reduce the length',
    'exceeds? (?:the )?context limit', 'input token count.{0,40}exceeds the maximum number of tokens', 'available context size',
    'maximum prompt length', 'max_new_tokens`? must be <=', 'input is too long',
  ].join('|'),
  'i',
);

export function isContextLengthWording(text: string): boolean {
  return CONTEXT_LENGTH_WORDING.test(text);
}

/** The window an error message names, if it names one. */
export function parseContextLimit(message: string): number | undefined {
  for (const pattern of LIMIT_PATTERNS) {
    const match = pattern.exec(message);
    if (match) {
      const contextWindow = Number(match[1].replace(/[,_]/g, ''));
      if (Number.isFinite(contextWindow) && contextWindow >= MIN_CONTEXT_WINDOW) return contextWindow;
    }
  }
  return undefined;
}
