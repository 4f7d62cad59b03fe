/**
 * How long our trim takes on a production-size history (regime a: ~750 messages, ~2.7 MB), cold (a
 * fresh SizeMemo, as after a restart) and warm (the memo knows every message but the new ones), for
 * planTrim alone and for the whole request preparation from the neutral ChatMessage form.
 */
import { repairedHistory } from '../../core/convert/convertRequest';
import { type PrepareContext } from '../../core/request/prepareRequest';
import { SizeMemo } from '../../core/trim/messageSize';
import { benchLimits, benchSettings } from '../policies/benchSettings';
import { toChatSession } from '../sessions/chatForm';
import { requestAt, type BenchSession } from '../sessions/sessionGenerator';
import { summarizeTimings, timeMs, type TimingSummary } from './timing';
import { planTrim } from '../../core/trim/planTrim';
import { prepareRequest } from '../../test/support/prepareRequest';
import { ConversationStates } from '../../core/trim/trimState';
import { MemoryLogger } from '../../test/support/memoryLogger';

/**
 * Cold runs are repeated on request 0 with a new memo each time. The very first one in the process also
 * pays for JIT compilation; it is reported on its own (a restarted extension host pays it once).
 */
const COLD_RUNS = 8;

export interface TrimSpeed {
  messages: number;
  bytes: number;
  /** First planTrim call of the process: JIT and memo cold. */
  trimFirstCallMs: number;
  trimCold: TimingSummary;
  trimWarm: TimingSummary;
  prepareFirstCallMs: number;
  prepareCold: TimingSummary;
  prepareWarm: TimingSummary;
}

function freshContext(session: BenchSession): PrepareContext {
  return {
    settings: benchSettings(session.regime),
    limits: benchLimits(session.regime),
    calibration: 1,
    memo: new SizeMemo(),
    states: new ConversationStates(),
    log: new MemoryLogger(),
  };
}

export function measureTrimSpeed(session: BenchSession): TrimSpeed {
  const requests = session.requestEnds.map((_, i) => requestAt(session, i));
  const planOf = (ctx: PrepareContext, i: number) => () => void planTrim(repairedHistory(requests[i].messages, ctx.log), requests[i].tools, ctx);

  const trimCold = Array.from({ length: COLD_RUNS }, () => timeMs(planOf(freshContext(session), 0)));
  const warmCtx = freshContext(session);
  planOf(warmCtx, 0)();
  const trimWarm = requests.slice(1).map((_, k) => timeMs(planOf(warmCtx, k + 1)));

  const chat = toChatSession(session);
  const chatRequest = (i: number) => ({ purpose: 'conversation' as const, modelId: 'bench-model', messages: chat.messages.slice(0, chat.chatEnds[i]), tools: chat.tools });
  const prepareOf = (ctx: PrepareContext, i: number) => {
    const request = chatRequest(i);
    return () => void prepareRequest(request, ctx);
  };
  const prepareCold = Array.from({ length: COLD_RUNS }, () => timeMs(prepareOf(freshContext(session), 0)));
  const prepareCtx = freshContext(session);
  prepareOf(prepareCtx, 0)();
  const prepareWarm = requests.slice(1).map((_, k) => timeMs(prepareOf(prepareCtx, k + 1)));

  return {
    messages: session.stats.prefillMessages,
    bytes: session.stats.prefillBytes,
    trimFirstCallMs: trimCold[0],
    trimCold: summarizeTimings(trimCold.slice(1)),
    trimWarm: summarizeTimings(trimWarm),
    prepareFirstCallMs: prepareCold[0],
    prepareCold: summarizeTimings(prepareCold.slice(1)),
    prepareWarm: summarizeTimings(prepareWarm),
  };
}
