/**
 * Every image of a request made to fit the model's limits (fitImage.ts): images in user messages and images
 * returned inside tool results. Memoized by the image's content hash and the limits, so an image seen on
 * every turn is decoded once, and a repeated image is the same object with the same bytes.
 */
import type { ChatMessage, ChatPart } from '../types';
import { BoundedMap } from '../util/boundedMap';
import { hashId } from '../util/hashId';
import { fitImage, type FittedImage, type SentImage } from './fitImage';
import type { ImageLimits } from './imageLimits';

export interface ImageFitStats {
  /** Images seen (user and tool-result images). */
  images: number;
  /** Images resized or re-encoded. */
  fitted: number;
  /** Images that could not be made to fit, with the reason of the first. */
  unfit: number;
  firstUnfitReason?: string;
  /** Bytes of the images before and after (raw, not base64). */
  bytesBefore: number;
  bytesAfter: number;
}

/** Up to 64 images, 64 MB of fitted bytes: a long session with screenshots on every turn stays bounded. */
export class ImageFitMemo {
  private readonly fitted = new BoundedMap<string, FittedImage>(64, { weigh: (image) => image.data.byteLength, maxWeight: 64 * 1024 * 1024 });

  fit(image: SentImage, limits: ImageLimits): FittedImage {
    const key = `${limits.maxLongSide}:${limits.maxBytes}:${hashId(image.data)}`;
    const known = this.fitted.get(key);
    if (known) return known;
    const result = fitImage(image, limits);
    this.fitted.set(key, result);
    return result;
  }
}

/** The extension's one memo: what it holds is a function of the image and the limits alone, so sharing it is safe. */
export const SHARED_IMAGE_MEMO = new ImageFitMemo();

export function fitImages(messages: readonly ChatMessage[], limits: ImageLimits, memo: ImageFitMemo): { messages: ChatMessage[]; stats: ImageFitStats } {
  const stats: ImageFitStats = { images: 0, fitted: 0, unfit: 0, bytesBefore: 0, bytesAfter: 0 };
  const fit = (image: SentImage): SentImage => {
    const result = memo.fit(image, limits);
    stats.images++;
    stats.bytesBefore += image.data.byteLength;
    stats.bytesAfter += result.data.byteLength;
    if (result.outcome === 'fitted') stats.fitted++;
    if (result.outcome === 'unfit') {
      stats.unfit++;
      stats.firstUnfitReason ??= result.reason;
    }
    return result.outcome === 'unchanged' ? image : { mimeType: result.mimeType, data: result.data };
  };
  const out = messages.map((message) => (message.parts.some(hasImage) ? { ...message, parts: message.parts.map((part) => fitPart(part, fit)) } : message));
  return { messages: out, stats };
}

function hasImage(part: ChatPart): boolean {
  return part.kind === 'image' || (part.kind === 'toolResult' && (part.images?.length ?? 0) > 0);
}

function fitPart(part: ChatPart, fit: (image: SentImage) => SentImage): ChatPart {
  if (part.kind === 'image') return { kind: 'image', ...fit(part) };
  if (part.kind === 'toolResult' && part.images?.length) return { ...part, images: part.images.map(fit) };
  return part;
}
