/** The messages between imageFitter.ts and its worker (imageWorker.ts). */
import type { DecodableMime } from './imageCodec';
import type { Orientation } from './exifOrientation';
import type { FittedImage } from './fitImage';
import type { ImageLimits } from './imageLimits';

export interface FitJob {
  id: number;
  mimeType: string;
  /** A copy of the image's bytes (the caller keeps its own). */
  data: Uint8Array;
  limits: ImageLimits;
  plan: { decode: DecodableMime; orientation: Orientation };
}

export interface FitReply {
  id: number;
  outcome: FittedImage['outcome'];
  mimeType: string;
  reason?: string;
  /** The new bytes; absent when the image is sent as it came. */
  data?: Uint8Array;
}

/** The worker's first message: it loaded and listens. */
export interface ReadyMessage {
  ready: true;
}
