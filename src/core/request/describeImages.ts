/**
 * Images for a model without image input, described by a vision model (docs/editor.md "Images for text-only
 * models"). A step of the request before its conversion: each image of the request (in a user message or returned
 * by a tool) becomes text naming the describing model and saying what the image shows, so the conversion, the
 * trim and every route see text only. The description depends on the image's bytes alone and is remembered by
 * their hash (images/imageDescriptions.ts, persisted by the engine): an image is described once, and every later
 * turn sends the same bytes. An image that could not be described stays an image, and the conversion replaces
 * it by its fixed note as before (convert/toWireMessages.ts, with its `[request] … replaced N image(s)` WARN).
 *
 * The describing request is the engine's own request with the purpose `describe` (purpose.ts: it is accounted,
 * with its `[usage]` line, and warms nothing, enters no conversation list); the engine passes its run() in, so
 * nothing here calls up a layer.
 */
import type { RequestCost } from '../cost/requestCost';
import type { SentImage } from '../images/fitImage';
import { boundedDescription, describedImageText, describedToolImageText, IMAGE_DESCRIPTION_BOUNDS, imageKey, type ImageDescription, type ImageDescriptions } from '../images/imageDescriptions';
import type { Logger } from '../log';
import type { ChatMessage, ChatPart, StreamEvent } from '../types';
import type { ChatRequest } from './prepareRequest';
import { BoundedMap } from '../util/boundedMap';
import { cancelledError } from './userFacingError';
import { type ListedFields } from '../models/modelFacts';

/** At most this many images are described for one request (sequentially); the rest stay notes until a later one. */
export const MAX_DESCRIBED_PER_REQUEST = 8;
/** The describing answer's output bound (tokens). */
export const DESCRIBE_MAX_TOKENS = 1_024;

export const DESCRIBE_INSTRUCTIONS =
  'You describe images for another model that cannot see them. Describe the image completely and precisely: what ' +
  'kind of image it is (screenshot, photo, diagram, chart, …), every visible text verbatim, the layout, colours ' +
  'and anything a developer would need to answer questions about it. Plain text, no preamble.';

/** The vision model a request's images go to, and what its endpoint lists of it (set by the adapter). */
export interface DescribingModel {
  modelId: string;
  listed: ListedFields;
}

/** The describing requests one request caused, for the session report (counted apart, like warming). */
export interface DescribeTally {
  requests: number;
  /** Dollars of those with a known cost. */
  costUsd: number;
}

/** One describing request: the engine's run() with the purpose `describe`. */
export type DescribeRun = (request: ChatRequest, listed: ListedFields, onEvent: (event: StreamEvent) => void, signal: AbortSignal) => Promise<{ accountedCost?: RequestCost }>;

/** The describing request for one image: fixed instructions, a fixed question, the image (fitted by the conversion). */
export function describingRequest(modelId: string, image: SentImage): ChatRequest {
  return {
    purpose: 'describe',
    modelId,
    messages: [
      { role: 'system', parts: [{ kind: 'text', text: DESCRIBE_INSTRUCTIONS }] },
      { role: 'user', parts: [{ kind: 'text', text: 'Describe this image.' }, { kind: 'image', mimeType: image.mimeType, data: image.data }] },
    ],
    tools: [],
    imageInput: true,
    modelOptions: { max_tokens: DESCRIBE_MAX_TOKENS, temperature: 0 },
  };
}

/** What one describing request ended with. */
interface Described {
  description?: ImageDescription;
  cost?: RequestCost;
  failure?: string;
  /** The failure was the starting request's cancellation. */
  cancelled?: boolean;
}

export class ImageDescriber {
  /** One describing request per image at a time, also when two requests carry it at once. */
  private readonly inFlight = new Map<string, Promise<Described>>();
  /**
   * Images a describing model failed on in this activation (by model and key): not asked again, so a broken or
   * missing vision model costs one request per image, not one per turn, and the note stays the same bytes.
   */
  private readonly failed = new BoundedMap<string, true>(1_024);

  constructor(
    readonly memo: ImageDescriptions,
    private readonly run: DescribeRun,
    private readonly log: Logger,
    /** Called after a new description was remembered (the engine persists the memo). */
    private readonly remembered: () => void,
  ) {}

  /** The request with its images described where possible; unchanged when the model takes images or none describes. */
  async describe(request: ChatRequest, signal: AbortSignal): Promise<{ request: ChatRequest; tally: DescribeTally }> {
    const tally: DescribeTally = { requests: 0, costUsd: 0 };
    const by = request.describeWith;
    if (request.imageInput !== false || !by) return { request, tally };
    const images = distinctImages(request.messages);
    if (images.size === 0) return { request, tally };
    let fresh = 0;
    const failures: string[] = [];
    for (const [key, image] of images) {
      if (this.memo.get(key) || this.failed.has(`${by.modelId}\u0000${key}`) || fresh >= MAX_DESCRIBED_PER_REQUEST) continue;
      fresh++;
      const { result, own } = await this.once(key, image, by, signal);
      if (signal.aborted) throw cancelledError(signal.reason);
      // A describing request another request started is that one's to count.
      if (own) {
        tally.requests++;
        tally.costUsd += result.cost?.usd ?? 0;
      }
      if (!result.failure) continue;
      failures.push(result.failure);
      // Stopped by the request that started it (the user cancelled that one): not the model's failure.
      if (!result.cancelled) this.failed.set(`${by.modelId}\u0000${key}`, true);
    }
    const described = fresh - failures.length;
    if (described > 0) this.log.info(`[images] ${by.modelId} described ${described} image(s) for ${request.modelId}; each later turn sends the same description.`);
    if (failures.length > 0) this.log.warn(`[images] ${by.modelId} could not describe ${failures.length} image(s) for ${request.modelId} (${failures[0]}); each stays a note.`);
    return { request: { ...request, messages: withDescriptions(request.messages, (key) => this.memo.get(key)) }, tally };
  }

  private async once(key: string, image: SentImage, by: DescribingModel, signal: AbortSignal): Promise<{ result: Described; own: boolean }> {
    const pending = this.inFlight.get(key);
    if (pending) return { result: await pending, own: false };
    const started = this.send(key, image, by, signal).finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, started);
    return { result: await started, own: true };
  }

  private async send(key: string, image: SentImage, by: DescribingModel, signal: AbortSignal): Promise<Described> {
    let text = '';
    const bound = IMAGE_DESCRIPTION_BOUNDS.maxTextChars * 2;
    try {
      const outcome = await this.run(describingRequest(by.modelId, image), by.listed, (event) => {
        if (event.kind === 'text' && text.length < bound) text += event.text.slice(0, bound - text.length);
      }, signal);
      const description = boundedDescription(by.modelId, text);
      if (!description) return { cost: outcome.accountedCost, failure: 'an empty answer' };
      this.memo.set(key, description);
      this.remembered();
      return { description, cost: outcome.accountedCost };
    } catch (error) {
      return { failure: error instanceof Error ? error.message : String(error), cancelled: signal.aborted };
    }
  }
}

/** Every image of the messages by its key, in order of first appearance. */
function distinctImages(messages: readonly ChatMessage[]): Map<string, SentImage> {
  const found = new Map<string, SentImage>();
  const add = (image: SentImage) => {
    const key = imageKey(image.data);
    if (!found.has(key)) found.set(key, image);
  };
  for (const message of messages) {
    for (const part of message.parts) {
      if (part.kind === 'image') add(part);
      else if (part.kind === 'toolResult') part.images?.forEach(add);
    }
  }
  return found;
}

/** Each image with a description becomes its text; the others stay images (the conversion notes them). */
export function withDescriptions(messages: readonly ChatMessage[], known: (key: string) => ImageDescription | undefined): ChatMessage[] {
  return messages.map((message) => {
    if (!message.parts.some((p) => p.kind === 'image' || (p.kind === 'toolResult' && p.images?.length))) return message;
    return { ...message, parts: message.parts.map((part) => describedPart(part, known)) };
  });
}

function describedPart(part: ChatPart, known: (key: string) => ImageDescription | undefined): ChatPart {
  if (part.kind === 'image') {
    const d = known(imageKey(part.data));
    return d ? { kind: 'text', text: describedImageText(d) } : part;
  }
  if (part.kind !== 'toolResult' || !part.images?.length) return part;
  const lines: string[] = [];
  const left = part.images.filter((image) => {
    const d = known(imageKey(image.data));
    if (d) lines.push(describedToolImageText(image.mimeType, d));
    return !d;
  });
  if (lines.length === 0) return part;
  const { images: _images, ...rest } = part;
  return { ...rest, text: [part.text, ...lines].filter(Boolean).join('\n'), ...(left.length ? { images: left } : {}) };
}
