/**
 * Run as a child process with --expose-gc: heap growth of the SizeMemo over a 2,000-request session at
 * the ceiling (regime a's shape, sized with our estimator so no tokenizer is loaded). The session is
 * generated first, so the heap difference is the memo (and the trim's small per-conversation state).
 * Prints one JSON line.
 */
import { performance } from 'perf_hooks';
import type { Logger } from '../../core/log';
import { repairedHistory } from '../../core/convert/convertRequest';
import { measureMessage, SizeMemo } from '../../core/trim/messageSize';
import { estimateTextTokens } from '../../core/tokens/estimate';
import type { WireMessage } from '../../core/wire/wireTypes';
import { benchLimits, benchSettings } from '../policies/benchSettings';
import { generateSession, requestAt, type BenchSession } from '../sessions/sessionGenerator';
import { measureCharsPerToken } from '../sessions/textOfTokens';
import { runAsChildProbe } from './childProbe';
import { planTrim } from '../../core/trim/planTrim';
import { regimeById } from '../sessions/regimes';
import { ConversationStates } from '../../core/trim/trimState';

export const MEMORY_PROBE_REQUESTS = 2_000;

export interface MemoryGrowth {
  requests: number;
  messages: number;
  memoEntries: number;
  heapBeforeMB: number;
  heapAfterMB: number;
  /** Heap freed when the memo is dropped: what the memo itself holds. */
  memoRetainedMB: number;
  bytesPerEntry: number;
  gcExposed: boolean;
  /** Time of the 2,000 planTrim calls (histories grow to several thousand messages). */
  runMs: number;
}

const silent: Logger = { info() {}, warn() {}, error() {}, debug() {} };
const MB = 1024 * 1024;

function heapUsedAfterGc(): number {
  (global as { gc?: () => void }).gc?.();
  return process.memoryUsage().heapUsed;
}

/** A new macrotask: V8 may keep a just-dropped object alive until the current job ends. */
const nextTask = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

function generate(): BenchSession {
  const regime = { ...regimeById('a'), requests: MEMORY_PROBE_REQUESTS };
  const sizer = { messageTokens: (m: WireMessage) => measureMessage(m).tokens, toolsTokens: () => 0 };
  return generateSession(regime, sizer, measureCharsPerToken(estimateTextTokens));
}

function trimEveryRequest(session: BenchSession, memo: SizeMemo): number {
  const settings = benchSettings(session.regime);
  const limits = benchLimits(session.regime);
  const states = new ConversationStates();
  const started = performance.now();
  for (let i = 0; i < session.requestEnds.length; i++) {
    const request = requestAt(session, i);
    planTrim(repairedHistory(request.messages, silent), request.tools, { settings, limits, calibration: 1, memo, states, log: silent });
  }
  return performance.now() - started;
}

async function probe(): Promise<MemoryGrowth> {
  const session = generate();
  await nextTask();
  const before = heapUsedAfterGc();
  const holder: { memo?: SizeMemo } = { memo: new SizeMemo() };
  const runMs = trimEveryRequest(session, holder.memo as SizeMemo);
  await nextTask();
  const after = heapUsedAfterGc();
  const memoEntries = holder.memo?.size ?? 0;
  holder.memo = undefined;
  await nextTask();
  const released = heapUsedAfterGc();
  const retained = Math.max(0, after - released);
  return {
    requests: session.requestEnds.length,
    messages: session.messages.length,
    memoEntries,
    heapBeforeMB: before / MB,
    heapAfterMB: after / MB,
    memoRetainedMB: retained / MB,
    bytesPerEntry: memoEntries ? retained / memoEntries : 0,
    gcExposed: typeof (global as { gc?: unknown }).gc === 'function',
    runMs,
  };
}

if (require.main === module) runAsChildProbe(probe);
