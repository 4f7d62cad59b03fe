/**
 * Every image of a request made to fit the model's limits (fitImage.ts, off the host thread: imageFitter.ts):
 * images in user messages and images returned inside tool results. Memoized by the image's content hash and the
 * limits, so an image seen on every turn is decoded once, and a repeated image is the same object with the same
 * bytes. A refused image (a decompression bomb) becomes a note, always the same words for the same image.
 */
import type { ChatMessage, ChatPart } from '../types';
import { BoundedMap } from '../util/boundedMap';
import { hashIdInSlices } from '../util/hashId';
import { planFit, type FittedImage, type SentImage } from './fitPlan';
import { ImageFitter, type FitOne } from './imageFitter';
import { DEFAULT_IMAGE_LIMITS, type ImageLimits } from './imageLimits';
import { sniffMime } from './imageSize';

export interface ImageFitStats {
  /** Images seen (user and tool-result images). */
  images: number;
  /** Images resized or re-encoded. */
  fitted: number;
  /** Images that could not be made to fit, with the reason of the first. */
  unfit: number;
  firstUnfitReason?: string;
  /** Images refused without decoding (replaced by a note), with the reason of the first. */
  refused?: number;
  firstRefusedReason?: string;
  /** Bytes of the images before and after (raw, not base64). */
  bytesBefore: number;
  bytesAfter: number;
}

/** Up to 64 images, 64 MB of fitted bytes: a long session with screenshots on every turn stays bounded. */
export class ImageFitMemo {
  private readonly fitted = new BoundedMap<string, FittedImage>(64, { weigh: (image) => image.data.byteLength, maxWeight: 64 * 1024 * 1024 });
  /** Images being fitted now: a second request for the same image waits for the same job. */
  private readonly inFlight = new Map<string, Promise<FittedImage>>();

  constructor(private readonly fitOne: FitOne) {}

  async fit(image: SentImage, limits: ImageLimits): Promise<FittedImage> {
    // What the header decides (within the limits, a bomb, not decodable) needs no memo and no hash.
    const plan = planFit(image, limits);
    if ('done' in plan) return plan.done;
    const key = `${limits.maxLongSide}:${limits.maxBytes}:${await hashIdInSlices(image.data)}`;
    const known = this.fitted.get(key) ?? this.inFlight.get(key);
    if (known) return known;
    const job = this.fitOne(image, limits).then((result) => {
      this.inFlight.delete(key);
      if (!result.transient) this.fitted.set(key, result);
      return result;
    });
    this.inFlight.set(key, job);
    return job;
  }
}

let sharedFitter: ImageFitter | undefined;

/** The extension's one memo and worker: what it holds is a function of the image and the limits alone, so sharing it is safe. */
export const SHARED_IMAGE_MEMO = new ImageFitMemo((image, limits) => (sharedFitter ??= new ImageFitter()).fit(image, limits));

/** The note a refused image becomes (in a user message, or after a tool's text): the format its bytes are, not the label it came with. */
export function refusedImageNote(image: SentImage, reason: string | undefined): string {
  return `[image ${sniffMime(image.data) ?? 'of unknown format'} omitted: ${reason ?? 'it was refused'}]`;
}

/** The model's image limits (imageLimits.ts): the defaults while the catalogue says nothing. */
export function imageLimitsFor(_modelId: string): ImageLimits {
  return DEFAULT_IMAGE_LIMITS;
}

export async function fitImages(messages: readonly ChatMessage[], limits: ImageLimits, memo: ImageFitMemo): Promise<{ messages: ChatMessage[]; stats: ImageFitStats }> {
  const stats: ImageFitStats = { images: 0, fitted: 0, unfit: 0, bytesBefore: 0, bytesAfter: 0 };
  // Every distinct image is asked for at once (the worker takes them in order); the parts are rebuilt after.
  const images = messages.flatMap((message) => message.parts.flatMap(imagesOf));
  const results = new Map<SentImage, FittedImage>();
  await Promise.all(images.map(async (image) => results.set(image, await memo.fit(image, limits))));
  const fit = (image: SentImage): FittedImage => {
    const result = results.get(image) as FittedImage;
    stats.images++;
    stats.bytesBefore += image.data.byteLength;
    if (result.outcome === 'refused') {
      stats.refused = (stats.refused ?? 0) + 1;
      stats.firstRefusedReason ??= result.reason;
      return result;
    }
    stats.bytesAfter += result.data.byteLength;
    if (result.outcome === 'fitted') stats.fitted++;
    if (result.outcome === 'unfit') {
      stats.unfit++;
      stats.firstUnfitReason ??= result.reason;
    }
    return result;
  };
  const out = messages.map((message) => (message.parts.some(hasImage) ? { ...message, parts: message.parts.map((part) => fitPart(part, fit)) } : message));
  return { messages: out, stats };
}

function imagesOf(part: ChatPart): SentImage[] {
  if (part.kind === 'image') return [part];
  return part.kind === 'toolResult' ? (part.images ?? []) : [];
}

function hasImage(part: ChatPart): boolean {
  return imagesOf(part).length > 0;
}

function sent(image: SentImage, result: FittedImage): SentImage {
  return result.outcome === 'unchanged' ? image : { mimeType: result.mimeType, data: result.data };
}

function fitPart(part: ChatPart, fit: (image: SentImage) => FittedImage): ChatPart {
  if (part.kind === 'image') {
    const result = fit(part);
    return result.outcome === 'refused' ? { kind: 'text', text: refusedImageNote(part, result.reason) } : { kind: 'image', ...sent(part, result) };
  }
  if (part.kind !== 'toolResult' || !part.images?.length) return part;
  const kept: SentImage[] = [];
  const notes: string[] = [];
  for (const image of part.images) {
    const result = fit(image);
    if (result.outcome === 'refused') notes.push(refusedImageNote(image, result.reason));
    else kept.push(sent(image, result));
  }
  const text = [part.text, ...notes].filter(Boolean).join('\n');
  return kept.length > 0 ? { ...part, text, images: kept } : { kind: 'toolResult', callId: part.callId, text };
}
