/**
 * The Gemini route's body and per-attempt rules. The trimmed neutral history → a `streamGenerateContent` body
 * (OpenCode's "google" format), its parts typed with `@google/genai`'s types (types only: the SDK is a
 * devDependency): system messages as `systemInstruction`, turns as `contents` with roles `user` / `model`, calls as
 * `functionCall` parts (each with the `thoughtSignature` Gemini gave it, passed back unchanged, else the stand-in),
 * results as `functionResponse` parts (`response` is required) in user turns, tools reduced to Gemini's schema
 * subset (geminiSchema.ts) with names it accepts. `contents` is the last field, so a longer history only appends.
 * Also here: the tool-name mapping both ways and the native item that carries a call's signature, which the reader
 * (geminiStream.ts) writes and this body reads back.
 */
import type { Content, FunctionCall, FunctionCallingConfigMode, FunctionDeclaration, FunctionResponse, GenerationConfig, Part, ToolConfig } from '@google/genai';
import type { WireContentPart, WireMessage, WireTool } from '../../wire/wireTypes';
import type { AssistantLayout } from '../../answer/nativeReplay';
import type { Logger } from '../../log';
import type { AttemptRules, BodyInput } from '../route';
import { geminiParameters } from './geminiSchema';
import { hashId } from '../../util/hashId';
import { BoundedMap } from '../../util/boundedMap';
import { recordField, isRecord } from '../../util/jsonFields';
import { onceFor } from '../../util/onceKeys';
import { outsideText } from '../../util/excerpt';
import { withinRoom, inMemoryPrefixMs } from '../requestParts';

/** Lower-case JSON Schema types, as geminiSchema.ts reduces them (the SDK's Schema names them in upper case). */
type Declaration = Omit<FunctionDeclaration, 'parameters'> & { parameters?: Record<string, unknown> };
/** The REST body (the SDK's own request type is its client call's, not the wire's). */
export interface GeminiBody {
  generationConfig?: GenerationConfig;
  systemInstruction?: Content;
  tools?: { functionDeclarations: Declaration[] }[];
  toolConfig?: ToolConfig;
  contents: GeminiContent[];
}
export interface GeminiContent {
  role: 'user' | 'model';
  parts: Part[];
}
type AssistantWire = Extract<WireMessage, { role: 'assistant' }>;

/** Route.buildBody's untyped record: a spread of the typed body (an interface has no index signature). */
export function buildGeminiBody(input: BodyInput): Record<string, unknown> {
  const body: Omit<GeminiBody, 'contents'> = {};
  const config = generationConfig(input);
  if (Object.keys(config).length > 0) body.generationConfig = config;
  const system = input.messages.flatMap((m): Part[] => (m.role === 'system' && m.content ? [{ text: m.content }] : []));
  if (system.length > 0) body.systemInstruction = { parts: system };
  if (input.tools.length > 0) body.tools = [{ functionDeclarations: input.tools.map(toDeclaration) }];
  if (input.toolChoice === 'required' && input.tools.length > 0) body.toolConfig = { functionCallingConfig: { mode: 'ANY' as FunctionCallingConfigMode } };
  const sent: GeminiBody = { ...body, contents: toContents(input) };
  return { ...sent };
}

/** Max output within the model's limit; thoughts asked for on reasoning models (the effort level is merged in later). */
function generationConfig(input: Pick<BodyInput, 'options' | 'maxOutputTokens' | 'reasons' | 'outputRoom'>): GenerationConfig {
  const config: GenerationConfig = {};
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

function toDeclaration(tool: WireTool): Declaration {
  const declaration: Declaration = { name: geminiToolName(tool.function.name), description: tool.function.description ?? '' };
  const parameters = geminiParameters(tool.function.parameters);
  if (parameters) declaration.parameters = parameters;
  return declaration;
}

/** Consecutive messages of one side are one turn (a model turn's results are one user turn). */
function toContents(input: Pick<BodyInput, 'messages' | 'replay' | 'reasons'>): GeminiContent[] {
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
  return content.flatMap((part): Part[] => (part.type === 'text' ? (part.text ? [{ text: part.text }] : []) : [imagePart(part.image_url.url)]));
}

function imagePart(url: string): Part {
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
    const functionCall: FunctionCall = { name: geminiToolName(call.function.name), args: parseObject(call.function.arguments) ?? {} };
    if (signature?.geminiId) functionCall.id = signature.geminiId;
    const thoughtSignature = signature?.thoughtSignature ?? (thinking && i === 0 && !anySigned ? SKIP_SIGNATURE : undefined);
    parts.push(thoughtSignature ? { functionCall, thoughtSignature } : { functionCall });
  });
  return parts;
}

/** `response` is required; a result that is a JSON object is sent as is, anything else as `{content}`. */
function functionResponse(message: Extract<WireMessage, { role: 'tool' }>, name: string | undefined, signature: CallSignature | undefined): Part {
  const response = parseObject(message.content) ?? { content: message.content };
  const part: FunctionResponse = { name: geminiToolName(name ?? 'unknown_tool'), response };
  if (signature?.geminiId) part.id = signature.geminiId;
  return { functionResponse: part };
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Tool names: Gemini accepts function names that start with a letter or `_` and use only `a-zA-Z0-9_.:-`, at most
 * 128 characters. Other names are mapped deterministically (disallowed characters → `_`, plus a hash of the
 * original so two names never collide) and mapped back when the model calls them. The mapping is a pure function
 * of the name; the reverse table is a bounded memo filled each time a body is built, which always precedes the
 * reader that needs it (a route's reader gets no input: src/core/routes/route.ts).
 */
const VALID_NAME = /^[A-Za-z_][A-Za-z0-9_.:-]{0,127}$/;
const originalNames = new BoundedMap<string, string>(2000);

export function geminiToolName(name: string): string {
  if (VALID_NAME.test(name)) return name;
  const hash = hashId(name, 8);
  const cleaned = name.replace(/[^A-Za-z0-9_.:-]/g, '_').slice(0, 110);
  const mapped = `${/^[A-Za-z_]/.test(cleaned) ? '' : '_'}${cleaned}_${hash}`;
  originalNames.set(mapped, name);
  return mapped;
}

/** The tool's own name for a name Gemini called (unchanged when it was never mapped). */
export function originalToolName(sent: string): string {
  return originalNames.get(sent) ?? sent;
}

/**
 * What a Gemini answer must get back later: each `functionCall` part's `thoughtSignature` (unchanged; a missing one
 * is a 400) and Gemini's own call id when it sent one. Kept in the route-neutral NativeReplayMemory as one `native`
 * slot per signed call, placed before that call's slot: `{ type: 'gemini.functionCall', callId, thoughtSignature, geminiId? }`.
 */
const SIGNED_CALL = 'gemini.functionCall';

export interface CallSignature {
  thoughtSignature?: string;
  /** The id Gemini gave the call, when it gave one (then the result must carry it too). */
  geminiId?: string;
}

export function signedCallItem(callId: string, signature: CallSignature): Record<string, unknown> {
  const item: Record<string, unknown> = { type: SIGNED_CALL, callId };
  if (signature.thoughtSignature) item.thoughtSignature = signature.thoughtSignature;
  if (signature.geminiId) item.geminiId = signature.geminiId;
  return item;
}

/** Call id → its signature and Gemini id, from a remembered layout (malformed items are ignored). */
function callSignatures(layout: AssistantLayout | undefined): Map<string, CallSignature> {
  const out = new Map<string, CallSignature>();
  for (const slot of layout?.slots ?? []) {
    if (slot.kind !== 'native' || !isRecord(slot.item) || slot.item.type !== SIGNED_CALL || typeof slot.item.callId !== 'string') continue;
    const { thoughtSignature, geminiId } = slot.item;
    out.set(slot.item.callId, {
      ...(typeof thoughtSignature === 'string' ? { thoughtSignature } : {}),
      ...(typeof geminiId === 'string' ? { geminiId } : {}),
    });
  }
  return out;
}

/** How many parts of a Gemini body carry the stand-in signature. */
export function standInCount(body: Record<string, unknown>): number {
  const contents = Array.isArray(body.contents) ? (body.contents as { parts?: unknown }[]) : [];
  return contents.reduce((n, content) => n + (Array.isArray(content.parts) ? content.parts.filter((p) => (p as Part).thoughtSignature === SKIP_SIGNATURE).length : 0), 0);
}

/**
 * The stand-in tells Gemini to skip validating a call it did not sign: it works, but the model loses that turn's
 * reasoning. Worth one WARN per model (per log, i.e. per activation), not one per request.
 */
function noteStandIn(body: Record<string, unknown>, modelId: string, log: Logger): void {
  const count = standInCount(body);
  if (count === 0) return;
  if (!onceFor(log).first(`gemini-stand-in\u0000${modelId}`)) return;
  log.warn(`[gemini] ${outsideText(modelId)}: ${count} tool call(s) in the history carry no thought signature Gemini gave (another model or route made them, or it was lost); sent with Gemini's stand-in signature, so the model does not see that turn's reasoning. Said once per model.`);
}

/**
 * Per attempt (core/routes/route.ts AttemptRules): temperature and thinkingConfig live inside generationConfig;
 * the stand-in signatures of the history are worth one WARN per model; warming asks for one output token.
 */
export const geminiAttempt: AttemptRules = {
  required: ['contents'],
  dropNested(body, omitted) {
    if (!isRecord(body.generationConfig)) return body;
    const config: Record<string, unknown> = { ...body.generationConfig };
    if (omitted.has('temperature')) delete config.temperature;
    if (omitted.has('thinkingConfig')) delete config.thinkingConfig;
    return { ...body, generationConfig: config };
  },
  beforeSend: noteStandIn,
  warming: {
    body: (body) => ({ ...body, generationConfig: { ...recordField(body.generationConfig), maxOutputTokens: 1 } }),
    prefixLifetimeMs: inMemoryPrefixMs,
  },
};
