/** The fake server's model catalogue and its `/v1/models` wire shape. */
import type { FakeModel } from './types';

export const DEFAULT_MODELS: readonly FakeModel[] = [
  { id: 'fake-large', contextWindow: 1_000_000, maxOutputTokens: 32_000, toolCalling: true, imageInput: false },
  { id: 'fake-small', contextWindow: 8_192, maxOutputTokens: 2_048, toolCalling: true, imageInput: false },
  { id: 'fake-vision', contextWindow: 128_000, maxOutputTokens: 16_000, toolCalling: true, imageInput: true },
  // One model per native route, the way OpenCode serves GPT (/responses) and Claude (/messages).
  { id: 'fake-responses', contextWindow: 400_000, maxOutputTokens: 128_000, toolCalling: true, imageInput: true, api: 'responses', reasons: true },
  { id: 'fake-messages', contextWindow: 200_000, maxOutputTokens: 64_000, toolCalling: true, imageInput: true, api: 'messages', reasons: true },
  // Gemini (/models/{id}:streamGenerateContent): a thinking model, so its function calls carry thought signatures.
  { id: 'fake-native-gemini', contextWindow: 1_048_576, maxOutputTokens: 65_536, toolCalling: true, imageInput: true, api: 'gemini', reasons: true },
  // Lists a 128,000 window but takes 40,000 input tokens, refusing more without naming a number (OpenAI's wording):
  // the extension must learn its limit from one refusal.
  { id: 'fake-limited', contextWindow: 128_000, inputLimit: 40_000, maxOutputTokens: 32_000, toolCalling: true, imageInput: false },
  // A catalogue id (src/core/models/catalog): a reasoning model whose picker entry offers effort levels.
  { id: 'gpt-5.4-mini', contextWindow: 400_000, maxOutputTokens: 128_000, toolCalling: true, imageInput: true, api: 'responses', reasons: true },
];

export function findModel(models: readonly FakeModel[], id: unknown): FakeModel | undefined {
  return models.find((model) => model.id === id);
}

/** OpenAI list shape, plus the window/output/capability fields an OpenCode-style catalogue carries. */
export function modelListBody(models: readonly FakeModel[]): object {
  return {
    object: 'list',
    data: models.map((model) => ({
      id: model.id,
      object: 'model',
      owned_by: 'fake',
      context_length: model.contextWindow,
      max_output_tokens: model.maxOutputTokens,
      capabilities: { tool_calling: model.toolCalling === true, image_input: model.imageInput === true },
      // The family's route (OpenCode's own /models lists only ids; the fake says it so tests and `npm start` show it).
      api: model.api ?? 'chat',
    })),
  };
}

/** Parses the CLI form `id:window:maxOutput[:chat|responses|messages|gemini]` (tools on, images off). Throws on anything else. */
export function parseModelSpec(spec: string): FakeModel {
  const match = /^([^:\s]+):(\d+):(\d+)(?::(chat|responses|messages|gemini))?$/.exec(spec);
  if (!match) throw new Error(`--model expects id:window:maxOutput[:chat|responses|messages|gemini], got "${spec}"`);
  const model: FakeModel = { id: match[1], contextWindow: Number(match[2]), maxOutputTokens: Number(match[3]), toolCalling: true };
  if (match[4]) model.api = match[4] as FakeModel['api'];
  return model;
}
