/**
 * The usage of one answer, from the raw usage objects the readers pass on (wireEvent.ts): merged with the one
 * merger (core/usage/usage.ts mergeUsage: a later frame updates the fields it carries) or replaced (a format whose
 * every frame carries the whole usage so far), then read by the route's usage conversion the event names (numeric
 * strings, NaN and negatives, cache reads above the prompt: core/usage/usage.ts; an empty `usage: {}` is no usage).
 */
import { mergeUsage, type UsageReading } from '../usage/usage';
import type { WireEvent } from './wireEvent';

type UsageEvent = Extract<WireEvent, { kind: 'usage' }>;

export class UsageRecord {
  private raw: Record<string, unknown> | undefined;
  private latest: UsageReading | undefined;

  add(event: UsageEvent): void {
    const next = event.merge === 'replace' || !this.raw ? { ...event.raw } : mergeUsage(this.raw, event.raw);
    const reading = event.read(next);
    // A frame that is not usage at all (`usage: {}`, fields of no known shape) changes nothing.
    if (!reading) return;
    this.raw = next;
    this.latest = reading;
  }

  /** The answer's usage so far, and what was odd about it when it contradicted itself. */
  get reading(): UsageReading | undefined {
    return this.latest;
  }
}
