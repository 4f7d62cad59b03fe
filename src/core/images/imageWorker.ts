/**
 * The image worker's entry (a node:worker_threads Worker started by imageFitter.ts; bundled on its own as
 * dist/imageWorker.js by scripts/build.mjs). It runs fitDecoded — decode, orient, resize, encode — the same code
 * the calling thread would run, so the bytes are the same whichever thread fits an image. One job at a time.
 */
import { parentPort } from 'worker_threads';
import { fitDecoded } from './fitImage';
import type { FitJob, FitReply } from './imageFitProtocol';

const port = parentPort;
if (port) {
  port.on('message', (job: FitJob) => {
    const fitted = fitDecoded({ mimeType: job.mimeType, data: job.data }, job.limits, job.plan);
    const sameBytes = fitted.data === job.data;
    const reply: FitReply = { id: job.id, outcome: fitted.outcome, mimeType: fitted.mimeType, reason: fitted.reason, data: sameBytes ? undefined : fitted.data };
    // Handed over, not copied, when the bytes own their buffer (the codecs return fresh copies).
    const own = reply.data && reply.data.byteOffset === 0 && reply.data.byteLength === reply.data.buffer.byteLength;
    port.postMessage(reply, own && reply.data ? [reply.data.buffer as ArrayBuffer] : []);
  });
  port.postMessage({ ready: true });
}
