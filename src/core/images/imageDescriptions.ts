/**
 * What a vision model said an image shows, for a model without image input (docs/editor.md "Images for text-only
 * models"). Keyed by the image's content hash alone: the same image is the same words on every turn and after a
 * restart (persisted by the engine), whichever model or question comes later, so the prefix before the new turn
 * never changes. Bounded in entries and in characters, like every memo.
 */
import { BoundedMap } from '../util/boundedMap';
import { hashId } from '../util/hashId';

export interface ImageDescription {
  /** The model that described the image (named in the text the conversation gets). */
  model: string;
  text: string;
}

export const IMAGE_DESCRIPTION_BOUNDS = {
  /** Images remembered, newest used kept. */
  maxEntries: 256,
  /** One description's text, at most (a longer answer is cut there, once, before it is remembered). */
  maxTextChars: 4_000,
  /** A model id, at most. */
  maxModelChars: 200,
  /** All descriptions together, in characters. */
  maxTotalChars: 400_000,
} as const;

const IMAGE_KEY = /^[0-9a-f]{64}$/;

/** The memo key: the SHA-256 of the image's bytes (the media type is not needed: the bytes say what they are). */
export function imageKey(data: Uint8Array): string {
  return hashId(data);
}

/** The text a user message gets in place of the image. Fixed words: only the model and its description vary. */
export function describedImageText(d: ImageDescription): string {
  return `[image described by ${d.model} (this model does not accept images): ${d.text}]`;
}

/** The line a tool's text gets for each image it returned. */
export function describedToolImageText(mimeType: string, d: ImageDescription): string {
  return `[image ${mimeType} returned by the tool, described by ${d.model} (this model does not accept images): ${d.text}]`;
}

/** A description as it is remembered: trimmed, cut to the bound (an empty one is no description). */
export function boundedDescription(model: string, text: string): ImageDescription | undefined {
  const trimmed = text.trim();
  if (!trimmed || !model || model.length > IMAGE_DESCRIPTION_BOUNDS.maxModelChars) return undefined;
  const cut = Array.from(trimmed);
  return { model, text: cut.length > IMAGE_DESCRIPTION_BOUNDS.maxTextChars ? `${cut.slice(0, IMAGE_DESCRIPTION_BOUNDS.maxTextChars - 1).join('')}…` : trimmed };
}

export class ImageDescriptions {
  private readonly entries = new BoundedMap<string, ImageDescription>(IMAGE_DESCRIPTION_BOUNDS.maxEntries, {
    weigh: (d) => d.text.length + d.model.length,
    maxWeight: IMAGE_DESCRIPTION_BOUNDS.maxTotalChars,
  });

  get(key: string): ImageDescription | undefined {
    return this.entries.get(key);
  }

  set(key: string, description: ImageDescription): void {
    this.entries.set(key, description);
  }

  get size(): number {
    return this.entries.size;
  }

  /** Least recently used first, so loading the newest maxEntries keeps the ones in use. */
  toJSON(): Record<string, ImageDescription> {
    return Object.fromEntries(this.entries.entriesInOrder());
  }

  /** From validated records (request/savedRecords.ts validImageDescription), in saved order; the bounds apply again. */
  static fromJSON(value: Readonly<Record<string, ImageDescription>>): ImageDescriptions {
    const memo = new ImageDescriptions();
    for (const [key, d] of Object.entries(value)) if (IMAGE_KEY.test(key)) memo.set(key, d);
    return memo;
  }
}
