/**
 * Image fitting off the extension host's thread. The header decision (planFit: sizes, bombs, images already
 * within the limits) is cheap and runs here; everything that grows with the pixels (fitDecoded) runs in one
 * worker thread (imageWorker.ts), one image at a time, in arrival order:
 * - a bounded queue: beyond MAX_QUEUED waiting images a new one is sent as it came, with the reason (and not
 *   remembered, so the next request tries again);
 * - the worker starts on the first image that needs decoding, is unref'd while idle (it never keeps the process
 *   alive) and stops after IDLE_MS without work (its memory goes with it);
 * - a worker that crashes fails its image (sent as it came, with the reason) and is replaced for the next one;
 * - a worker that cannot start (its file missing from the package, threads refused): every image that needs
 *   decoding is sent as it came, with the reason in the `[images] … sent as they were (…)` warning. Nothing is
 *   ever decoded on the calling thread.
 */
import * as path from 'path';
import { Worker } from 'worker_threads';
import { planFit, type FittedImage, type SentImage } from './fitPlan';
import type { FitJob, FitReply } from './imageFitProtocol';
import type { ImageLimits } from './imageLimits';

export const MAX_QUEUED = 32;
const IDLE_MS = 30_000;

/** Fits one image; the same bytes as fitImage on the calling thread. */
export type FitOne = (image: SentImage, limits: ImageLimits) => Promise<FittedImage>;

export interface ImageFitterOptions {
  /** The worker's file (default: imageWorker.js beside this module, in out/ as in the bundle's dist/). */
  workerFile?: string;
  maxQueued?: number;
  idleMs?: number;
}

interface Pending {
  job: FitJob;
  image: SentImage;
  resolve: (fitted: FittedImage) => void;
}

export class ImageFitter {
  private worker: Worker | undefined;
  private ready = false;
  /** Why the worker could not start; from then on nothing is sent to a worker. */
  private broken: string | undefined;
  private readonly queue: Pending[] = [];
  private running: Pending | undefined;
  private nextId = 1;
  private idleTimer: NodeJS.Timeout | undefined;
  /** How many images were decoded in a worker (tests and the bench read it). */
  decoded = 0;

  constructor(private readonly options: ImageFitterOptions = {}) {}

  /** Resolves with the fitted image; never rejects. */
  fit(image: SentImage, limits: ImageLimits): Promise<FittedImage> {
    const plan = planFit(image, limits);
    if ('done' in plan) return Promise.resolve(plan.done);
    if (this.broken) return Promise.resolve(asItCame(image, `the image worker could not start: ${this.broken}`));
    if (this.queue.length >= (this.options.maxQueued ?? MAX_QUEUED)) return Promise.resolve({ ...asItCame(image, `${this.queue.length} images are already waiting to be fitted`), transient: true });
    return new Promise((resolve) => {
      // A copy the worker may own: the caller's bytes are often a view into a larger buffer shared with other parts
      // (VS Code hands Node Buffers of one message; Buffer#slice would not copy), and transferring that would empty them.
      const job: FitJob = { id: this.nextId++, mimeType: image.mimeType, data: new Uint8Array(image.data), limits, plan };
      this.queue.push({ job, image, resolve });
      this.pump();
    });
  }

  /** Stops the worker; waiting images are sent as they came. */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    this.failAll('the image worker was stopped');
    if (worker) await worker.terminate();
  }

  private pump(): void {
    if (this.running || this.queue.length === 0) return;
    const worker = this.worker ?? this.start();
    if (!worker) return;
    clearTimeout(this.idleTimer);
    worker.ref();
    this.running = this.queue.shift();
    if (this.running && this.ready) worker.postMessage(this.running.job, [this.running.job.data.buffer as ArrayBuffer]);
  }

  private start(): Worker | undefined {
    const file = this.options.workerFile ?? path.join(__dirname, 'imageWorker.js');
    let worker: Worker;
    try {
      worker = new Worker(file);
    } catch (error) {
      this.markBroken(error);
      return undefined;
    }
    this.worker = worker;
    this.ready = false;
    worker.on('message', (message: FitReply | { ready: true }) => this.onMessage(worker, message));
    worker.on('error', (error) => this.onStopped(worker, error));
    worker.on('exit', (code) => this.onStopped(worker, new Error(`it exited with code ${code}`)));
    return worker;
  }

  private onMessage(worker: Worker, message: FitReply | { ready: true }): void {
    if (worker !== this.worker) return;
    if ('ready' in message) {
      this.ready = true;
      if (this.running) worker.postMessage(this.running.job, [this.running.job.data.buffer as ArrayBuffer]);
      return;
    }
    const running = this.running;
    if (!running || running.job.id !== message.id) return;
    this.running = undefined;
    this.decoded++;
    const data = message.data ?? running.image.data;
    running.resolve({ mimeType: message.data ? message.mimeType : running.image.mimeType, data, outcome: message.outcome, ...(message.reason ? { reason: message.reason } : {}) });
    this.idle(worker);
    this.pump();
  }

  /** A worker error or exit: before it was ready it could not start; after, it crashed on the running image. */
  private onStopped(worker: Worker, error: Error): void {
    if (worker !== this.worker) return;
    this.worker = undefined;
    const detail = error.message.split('\n')[0];
    if (!this.ready) {
      this.markBroken(error);
      return;
    }
    const running = this.running;
    this.running = undefined;
    running?.resolve(asItCame(running.image, `the image worker stopped while fitting it (${detail})`));
    this.pump();
  }

  private markBroken(error: unknown): void {
    this.broken = (error instanceof Error ? error.message : String(error)).split('\n')[0];
    this.failAll(`the image worker could not start: ${this.broken}`);
  }

  private failAll(reason: string): void {
    const waiting = [...(this.running ? [this.running] : []), ...this.queue.splice(0)];
    this.running = undefined;
    for (const pending of waiting) pending.resolve(asItCame(pending.image, reason));
  }

  /** Nothing running: the worker may not keep the process alive, and stops after a quiet spell. */
  private idle(worker: Worker): void {
    if (this.running || this.queue.length > 0) return;
    worker.unref();
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      if (this.worker === worker && !this.running && this.queue.length === 0) {
        this.worker = undefined;
        void worker.terminate();
      }
    }, this.options.idleMs ?? IDLE_MS);
    this.idleTimer.unref();
  }
}

/** Sent as it came, with the reason. */
function asItCame(image: SentImage, reason: string): FittedImage {
  return { ...image, outcome: 'unfit', reason };
}
