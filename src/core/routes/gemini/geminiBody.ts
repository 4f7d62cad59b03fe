/**
 * The trimmed neutral history → a Gemini `streamGenerateContent` body (OpenCode's "google" format): system
 * messages as `systemInstruction`, turns as `contents` with roles `user` / `model`, calls as `functionCall`
 * parts (each with the `thoughtSignature` Gemini gave it, passed back unchanged), results as
 * `functionResponse` parts (`response` is required) in user turns, tools reduced to Gemini's schema subset
 * with names it accepts. `contents` is the last field, so a longer history only appends bytes.
 */
import type { WireContentPart, WireMessage, WireTool } from '../../wire/wireTypes';
import type { BodyInput } from '../route';
import { geminiParameters } from './geminiSchema';
import { geminiToolName } from './geminiToolNames';
import { callSignatures, type CallSignature } from './geminiReplay';
import { withinRoom } from '../requestParts';

export type Part = Record<string, unknown>;
export interface GeminiContent {
  role: 'user' | 'model';
  parts: Part[];
}
type AssistantWire = Extract<WireMessage, { role: 'assistant' }>;

export function buildGeminiBody(input: BodyInput): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const config = generationConfig(input);
  if (Object.keys(config).length > 0) body.generationConfig = config;
  const system = input.messages.flatMap((m) => (m.role === 'system' && m.content ? [{ text: m.content }] : []));
  if (system.length > 0) body.systemInstruction = { parts: system };
  if (input.tools.length > 0) body.tools = [{ functionDeclarations: input.tools.map(toDeclaration) }];
  if (input.toolChoice === 'required' && input.tools.length > 0) body.toolConfig = { functionCallingConfig: { mode: 'ANY' } };
  body.contents = toContents(input);
  return body;
}

/** Max output within the model's limit; thoughts asked for on reasoning models (the effort level is merged in later). */
export function generationConfig(input: Pick<BodyInput, 'options' | 'maxOutputTokens' | 'reasons' | 'outputRoom'>): Record<string, unknown> {
  const config: Record<string, unknown> = {};
  const options = input.options ?? {};
  const modelMax = input.maxOutputTokens && input.maxOutputTokens > 0 ? Math.floor(input.maxOutputTokens) : undefined;
  const requested = typeof options.max_tokens === 'number' && options.max_tokens > 0 ? Math.floor(options.max_tokens) : undefined;
  const max = requested !== undefined && modelMax !== undefined ? Math.min(requested, modelMax) : requested ?? modelMax;
  if (max !== undefined) config.maxOutputTokens = withinRoom(max, input.outputRoom);
  if (typeof options.temperature === 'number') config.temperature = options.temperature;
  if (typeof options.top_p === 'number') config.topP = options.top_p;
  if (options.stop?.length) config.stopSequences = options.stop;
  if (input.reasons) config.thinkingConfig = { includeThoughts: true };
  return config;
}

export function toDeclaration(tool: WireTool): Part {
  const declaration: Part = { name: geminiToolName(tool.function.name), description: tool.function.description ?? '' };
  const parameters = geminiParameters(tool.function.parameters);
  if (parameters) declaration.parameters = parameters;
  return declaration;
}

/** Consecutive messages of one side are one turn (a model turn's results are one user turn). */
export function toContents(input: Pick<BodyInput, 'messages' | 'replay' | 'reasons'>): GeminiContent[] {
  const out: GeminiContent[] = [];
  const names = new Map<string, string>();
  const signed = new Map<string, CallSignature>();
  const push = (role: GeminiContent['role'], parts: Part[]): void => {
    if (parts.length === 0) return;
    const last = out[out.length - 1];
    if (last?.role === role) last.parts.push(...parts);
    else out.push({ role, parts });
  };
  // The images tools returned follow all the functionResponse parts of their turn, as inlineData parts
  // (Gemini pairs the responses with the calls, so nothing goes between them).
  let toolImages: Part[] = [];
  for (const message of input.messages) {
    if (message.role !== 'tool' && toolImages.length > 0) {
      push('user', toolImages);
      toolImages = [];
    }
    if (message.role === 'user') push('user', userParts(message.content));
    else if (message.role === 'tool') {
      push('user', [functionResponse(message, names.get(message.tool_call_id), signed.get(message.tool_call_id))]);
      toolImages.push(...(message.images ?? []).map((image) => imagePart(image.image_url.url)));
    }
    else if (message.role === 'assistant') {
      const calls = message.tool_calls ?? [];
      for (const call of calls) names.set(call.id, call.function.name);
      const signatures = callSignatures(input.replay?.layoutFor(calls[0]?.id ?? '', 'gemini'));
      for (const [id, signature] of signatures) signed.set(id, signature);
      push('model', modelParts(message, signatures, input.reasons === true));
    }
  }
  push('user', toolImages);
  return out;
}

function userParts(content: string | WireContentPart[]): Part[] {
  if (typeof content === 'string') return content ? [{ text: content }] : [];
  return content.flatMap((part) => (part.type === 'text' ? (part.text ? [{ text: part.text }] : []) : [imagePart(part.image_url.url)]));
}

export function imagePart(url: string): Part {
  const match = /^data:([^;,]+);base64,(.*)$/s.exec(url);
  return match ? { inlineData: { mimeType: match[1], data: match[2] } } : { fileData: { fileUri: url } };
}

/**
 * Gemini's documented stand-in for a call it did not sign (history from another route or model, or a layout
 * no longer remembered): without it a thinking model answers 400 for the current turn's calls.
 */
export const SKIP_SIGNATURE = 'skip_thought_signature_validator';

function modelParts(message: AssistantWire, signatures: ReadonlyMap<string, CallSignature>, thinking: boolean): Part[] {
  const parts: Part[] = message.content ? [{ text: message.content }] : [];
  const calls = message.tool_calls ?? [];
  const anySigned = calls.some((call) => signatures.get(call.id)?.thoughtSignature);
  calls.forEach((call, i) => {
    const signature = signatures.get(call.id);
    const functionCall: Part = { name: geminiToolName(call.function.name), args: parseArgs(call.function.arguments) };
    if (signature?.geminiId) functionCall.id = signature.geminiId;
    const thoughtSignature = signature?.thoughtSignature ?? (thinking && i === 0 && !anySigned ? SKIP_SIGNATURE : undefined);
    parts.push(thoughtSignature ? { functionCall, thoughtSignature } : { functionCall });
  });
  return parts;
}

/** `response` is required; a result that is a JSON object is sent as is, anything else as `{content}`. */
function functionResponse(message: Extract<WireMessage, { role: 'tool' }>, name: string | undefined, signature: CallSignature | undefined): Part {
  const parsed = parseObject(message.content);
  const response = parsed ?? { content: message.content };
  const part: Part = { name: geminiToolName(name ?? 'unknown_tool'), response };
  if (signature?.geminiId) part.id = signature.geminiId;
  return { functionResponse: part };
}

function parseArgs(args: string): Record<string, unknown> {
  return parseObject(args) ?? {};
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
