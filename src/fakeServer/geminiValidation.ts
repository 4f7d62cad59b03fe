/**
 * Checks Gemini makes on a request body, worded as Gemini words them (400 INVALID_ARGUMENT): roles, a
 * `functionResponse` without `response`, and thought signatures — on a thinking model every step of the
 * current turn (the model turns after the last user text) must return the signature of its first function call
 * unchanged (or Gemini's documented stand-in `skip_thought_signature_validator`). Returns the message, or undefined when the body is acceptable.
 */
import { fakeThoughtSignature } from './geminiFrames';

const SKIP_SIGNATURE = 'skip_thought_signature_validator';

type Item = Record<string, unknown>;

function isItem(value: unknown): value is Item {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function geminiProblem(contents: readonly unknown[], checkSignatures: boolean): string | undefined {
  let turnStart = 0;
  for (let i = 0; i < contents.length; i++) {
    const content = contents[i];
    if (!isItem(content) || (content.role !== 'user' && content.role !== 'model')) return `Please use a valid role: user, model. (contents[${i}])`;
    const parts = Array.isArray(content.parts) ? content.parts : [];
    if (parts.length === 0) return `contents[${i}].parts: must not be empty`;
    for (const part of parts) {
      if (!isItem(part)) return `contents[${i}].parts: expected objects`;
      if (isItem(part.functionResponse) && !isItem(part.functionResponse.response)) return `* GenerateContentRequest.contents[${i}].parts.function_response.response: field is required`;
    }
    if (content.role === 'user' && parts.some((p) => isItem(p) && typeof p.text === 'string')) turnStart = i + 1;
  }
  return checkSignatures ? signatureProblem(contents.slice(turnStart) as Item[], turnStart) : undefined;
}

function signatureProblem(turn: readonly Item[], offset: number): string | undefined {
  for (let i = 0; i < turn.length; i++) {
    if (turn[i].role !== 'model') continue;
    const parts = (turn[i].parts as Item[]).filter((p) => isItem(p.functionCall));
    const first = parts[0];
    if (!first) continue;
    const call = first.functionCall as Item;
    if (first.thoughtSignature === undefined) {
      return `Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly. Additional data, function call \`${String(call.name)}\` , position ${offset + i + 1}.`;
    }
    // Gemini's documented stand-in for calls it did not produce is accepted as it is by Gemini.
    if (first.thoughtSignature === SKIP_SIGNATURE) continue;
    if (first.thoughtSignature !== fakeThoughtSignature(String(call.name), call.args)) return 'Corrupted thought signature.';
  }
  return undefined;
}

/** Gemini refuses a thinkingConfig that sets both thinkingLevel and thinkingBudget. */
export function thinkingConfigProblem(generationConfig: unknown): string | undefined {
  const thinking = isItem(generationConfig) ? generationConfig.thinkingConfig : undefined;
  if (isItem(thinking) && thinking.thinkingLevel !== undefined && thinking.thinkingBudget !== undefined) {
    return 'You can only set only one of thinking budget and thinking level.';
  }
  return undefined;
}
