/**
 * Run as a child process with --expose-gc: heap growth of the SizeMemo over a 2,000-request session at
 * the ceiling (regime a's shape, sized with our estimator so no tokenizer is loaded). The session is
 * generated first, so the heap difference is the memo (and the trim's small per-conversation state).
 * Prints one JSON line.
 */
import { performance } from 'perf_hooks';
import type { Logger } from '../../core/log';
import { planTrim } from '../../core/request/prepareRequest';
import { ConversationStates } from '../../core/trim/conversationState';
import { measureMessage, SizeMemo } from '../../core/trim/messageSize';
import { estimateTextTokens } from '../../core/tokens/estimate';
import { benchLimits, benchSettings } from '../policies/benchSettings';
import { regimeById } from '../sessions/regimes';
import { generateSession, requestAt } from '../sessions/sessionGenerator';
import { measureCharsPerToken } from '../sessions/textOfTokens';

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
  runMs: number;
}

const silent: Logger = { info() {}, warn() {}, error() {}, debug() {} };
const MB = 1024 * 1024;

function heapUsedAfterGc(): number {
  (global as { gc?: () => void }).gc?.();
  return process.memoryUsage().heapUsed;
}

function probe(): MemoryGrowth {
  const regime = { ...regimeById('a'), requests: MEMORY_PROBE_REQUESTS };
  const sizer = { messageTokens: (m: Parameters<typeof measureMessage>[0]) => measureMessage(m).tokens, toolsTokens: () => 0 };
  const session = generateSession(regime, sizer, measureCharsPerToken(estimateTextTokens));
  const settings = benchSettings(regime);
  const limits = benchLimits(regime);
  const states = new ConversationStates();

  const before = heapUsedAfterGc();
  let memo: SizeMemo | undefined = new SizeMemo();
  const started = performance.now();
  for (let i = 0; i < session.requestEnds.length; i++) {
    const request = requestAt(session, i);
    planTrim(request.messages, request.tools, { settings, limits, calibration: 1, memo, states, log: silent });
  }
  const runMs = performance.now() - started;
  const after = heapUsedAfterGc();
  const memoEntries = memo.size;
  memo = undefined;
  const released = heapUsedAfterGc();
  return {
    requests: session.requestEnds.length,
    messages: session.messages.length,
    memoEntries,
    heapBeforeMB: before / MB,
    heapAfterMB: after / MB,
    memoRetainedMB: Math.max(0, after - released) / MB,
    bytesPerEntry: memoEntries ? Math.max(0, after - released) / memoEntries : 0,
    gcExposed: typeof (global as { gc?: unknown }).gc === 'function',
    runMs,
  };
}

if (require.main === module) process.stdout.write(JSON.stringify(probe()) + '\n');
