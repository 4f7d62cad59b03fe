/**
 * Runs the regimes on a few worker threads (one per core, at most one per regime): the policy runs are
 * independent and CPU-bound, and the benchmark has to finish in minutes on a 2-core machine.
 */
import * as path from 'path';
import { Worker } from 'worker_threads';
import type { RegimeResult } from './compareRegime';
import type { RegimeJob } from './regimeWorker';

const WORKER_SCRIPT = path.join(__dirname, 'regimeWorker.js');

export function runRegimes(jobs: readonly RegimeJob[], threads: number, onDone: (result: RegimeResult) => void): Promise<RegimeResult[]> {
  const queue = [...jobs];
  const results = new Map<string, RegimeResult>();
  const runWorker = (): Promise<void> =>
    new Promise((resolve, reject) => {
      const worker = new Worker(WORKER_SCRIPT);
      const next = (): void => {
        const job = queue.shift();
        if (job) worker.postMessage(job);
        else void worker.terminate().then(() => resolve());
      };
      worker.on('message', (result: RegimeResult) => {
        results.set(result.regime.id, result);
        onDone(result);
        next();
      });
      worker.on('error', reject);
      next();
    });
  const count = Math.max(1, Math.min(threads, jobs.length));
  return Promise.all(Array.from({ length: count }, runWorker)).then(() => jobs.map((job) => {
    const result = results.get(job.regimeId);
    if (!result) throw new Error(`regime ${job.regimeId} produced no result`);
    return result;
  }));
}
