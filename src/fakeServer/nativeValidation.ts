/**
 * Checks the real APIs make on what a client passes back, so tests of "reasoning passed back" can fail:
 * Responses function_call item ids must start with `fc`, a reasoning item must be followed by another item
 * and carry the encrypted content the server produced; a Messages thinking block must carry its signature.
 * Each returns the API's error message, or undefined when the body is acceptable.
 */
import { fakeSignature } from './messagesFrames';
import { fakeEncrypted } from './responsesFrames';

type Item = Record<string, unknown>;

function isItem(value: unknown): value is Item {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function responsesInputProblem(input: readonly unknown[]): string | undefined {
  for (let i = 0; i < input.length; i++) {
    const item = input[i];
    if (!isItem(item)) return `Invalid 'input[${i}]': expected an object.`;
    if (item.type === 'function_call' && item.id !== undefined && !String(item.id).startsWith('fc')) {
      return `Invalid 'input[${i}].id': '${String(item.id)}'. Expected an ID that begins with 'fc'.`;
    }
    if (item.type === 'reasoning') {
      if (i === input.length - 1) return `Item '${String(item.id)}' of type 'reasoning' was provided without its required following item.`;
      // OpenAI's answer under store:false when the item comes back without the content it was never asked for.
      if (item.encrypted_content === undefined || item.encrypted_content === null) {
        return `Item with id '${String(item.id)}' not found. Items are not persisted when \`store\` is set to false. Try again with \`store\` set to true, or remove this item from your input.`;
      }
      const summary = Array.isArray(item.summary) ? item.summary.map((s) => (isItem(s) ? String(s.text) : '')).join('') : '';
      if (item.encrypted_content !== fakeEncrypted(summary)) return `The encrypted content for item ${String(item.id)} could not be verified.`;
    }
  }
  return undefined;
}

export function messagesProblem(messages: readonly unknown[]): string | undefined {
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i];
    if (!isItem(message) || (message.role !== 'user' && message.role !== 'assistant')) return `messages.${i}: role must be "user" or "assistant"`;
    const content = Array.isArray(message.content) ? message.content : [];
    for (let j = 0; j < content.length; j++) {
      const block = content[j];
      if (!isItem(block)) return `messages.${i}.content.${j}: expected an object`;
      if (block.type === 'text' && !block.text) return `messages.${i}.content.${j}: text content blocks must be non-empty`;
      if (block.type === 'thinking' && block.signature !== fakeSignature(String(block.thinking))) return `messages.${i}.content.${j}: Invalid \`signature\` in \`thinking\` block`;
    }
  }
  return undefined;
}
