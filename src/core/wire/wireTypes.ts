/**
 * The OpenAI chat-completions wire shapes we send. Declared here (structurally compatible with the
 * `openai` SDK's params) so the trimmer and the tests can read them without SDK generics.
 */

export type WireImagePart = { type: 'image_url'; image_url: { url: string } };

export type WireContentPart = { type: 'text'; text: string } | WireImagePart;

export interface WireToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export type WireMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string | WireContentPart[] }
  | { role: 'assistant'; content: string | null; tool_calls?: WireToolCall[]; reasoning_content?: string }
  /**
   * `images`: what the tool returned besides text (a screenshot), as data URLs. Each route carries them its
   * own way (docs/images.md); Chat Completions, whose tool messages are text only, in a user message after them.
   */
  | { role: 'tool'; tool_call_id: string; content: string; images?: WireImagePart[] };

export interface WireTool {
  type: 'function';
  function: { name: string; description: string; parameters: object };
}
