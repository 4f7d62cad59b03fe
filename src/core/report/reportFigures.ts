/**
 * The report's replayed figures, kept incrementally: one PolicyReplay per policy (no trim, minimal fit, ours
 * under the settings in force) and, on demand, the what-if's chosen values. Each new request costs one step of
 * each replay; a report opened on a long conversation catches up in slices (catchUp) so the extension host is
 * never held for long. Figures are laid for one basis (the settings and the conversation's budget): when that
 * changes, the report starts a new ConversationFigures (basisKey).
 */
import type { Settings } from '../config/settings';
import { SizeMemo } from '../trim/messageSize';
import { minimalFitRunner, noTrimRunner, oursRunner, replayLimits, replaySettings, type TrimOverrides } from './policies';
import type { ConversationLog, RequestRecord } from './requestLog';
import { PolicyReplay } from './simulate';

export type PolicyId = 'noTrim' | 'minimalFit' | 'ours';

/** A replay and the conversation request (counted from the first ever added) it started at. */
export interface TrackedReplay {
  replay: PolicyReplay;
  from: number;
}

/** What the figures depend on besides the requests: the trim settings and the budget the conversation had. */
export function basisKey(settings: Settings, last: RequestRecord): string {
  return JSON.stringify([settings.historyTrim, last.budget, last.maxBytes, last.reserve, last.contextWindow]);
}

export class ConversationFigures {
  readonly policies: Record<PolicyId, TrackedReplay>;
  readonly key: string;

  constructor(
    readonly settings: Settings,
    /** The conversation's latest record when the figures were laid: its budget pins every replay. */
    readonly basis: RequestRecord,
    log: ConversationLog,
    /** The one size cache: in the extension, the engine's (the live trim has measured every message already). */
    readonly memo: SizeMemo = new SizeMemo(),
  ) {
    this.key = basisKey(settings, basis);
    const from = firstKept(log);
    this.policies = {
      noTrim: { replay: new PolicyReplay(noTrimRunner(), this.memo), from },
      minimalFit: { replay: new PolicyReplay(minimalFitRunner(basis.budget, basis.maxBytes, this.memo), this.memo), from },
      ours: { replay: this.oursReplay({}), from },
    };
  }

  /** Our trim with other values (the what-if's chosen side), replayed from the first kept request. */
  whatIfReplay(log: ConversationLog, overrides: TrimOverrides): TrackedReplay {
    return { replay: this.oursReplay(overrides), from: firstKept(log) };
  }

  /** Requests the replays (and `extra`) have still to step through. */
  pending(log: ConversationLog, extra: readonly TrackedReplay[] = []): number {
    const offset = firstKept(log);
    const left = (t: TrackedReplay): number => (t.from + t.replay.steps.length >= offset ? log.added - (t.from + t.replay.steps.length) : 0);
    return Math.max(0, ...[...Object.values(this.policies), ...extra].map(left));
  }

  /** Steps every replay to the conversation's newest request, or until `deadline` (performance.now()); true when caught up. */
  advance(log: ConversationLog, deadline = Infinity, extra: readonly TrackedReplay[] = []): boolean {
    const tracked = [...Object.values(this.policies), ...extra];
    const offset = log.added - log.requests.length;
    for (;;) {
      let stepped = false;
      for (const t of tracked) {
        const next = t.from + t.replay.steps.length;
        // Caught up; or stale (the request was dropped from the log before its step): the report lays new figures.
        if (next >= log.added || next < offset) continue;
        t.replay.step(log.requests[next - offset]);
        stepped = true;
      }
      if (!stepped) return true;
      if (performance.now() >= deadline) return this.pending(log, extra) === 0;
    }
  }

  /** A request was dropped from the log before every replay stepped through it: lay new figures. */
  stale(log: ConversationLog, extra: readonly TrackedReplay[] = []): boolean {
    const offset = firstKept(log);
    return [...Object.values(this.policies), ...extra].some((t) => t.from + t.replay.steps.length < offset);
  }

  private oursReplay(overrides: TrimOverrides): PolicyReplay {
    return new PolicyReplay(oursRunner(replaySettings(this.settings, this.basis, overrides), replayLimits(this.basis), this.memo), this.memo);
  }
}

const firstKept = (log: ConversationLog): number => log.added - log.requests.length;

/** Runs `advance` in slices of `sliceMs`, yielding to the event loop between them; false when `cancelled` stopped it. */
export async function catchUp(advance: (deadline: number) => boolean, sliceMs: number, cancelled: () => boolean = () => false): Promise<boolean> {
  while (!advance(performance.now() + sliceMs)) {
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (cancelled()) return false;
  }
  return true;
}
