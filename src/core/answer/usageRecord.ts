/**
 * The usage of one answer, from the raw usage objects the readers pass on (wireEvent.ts): merged with the one
 * merger (core/usage/mergeUsage.ts: a later frame updates the fields it carries) or replaced (a format whose every
 * frame carries the whole usage so far), then read by the one normalizer (core/usage/normalizeUsage.ts: numeric
 * strings, NaN and negatives, cache reads above the prompt, an empty `usage: {}` is no usage).
 */
import { mergeUsage } from '../usage/mergeUsage';
import { readUsage, type UsageReading } from '../usage/normalizeUsage';
import type { WireEvent } from './wireEvent';

type UsageEvent = Extract<WireEvent, { kind: 'usage' }>;

export class UsageRecord {
  private raw: Record<string, unknown> | undefined;
  private latest: UsageReading | undefined;

  add(event: UsageEvent): void {
    const next = event.merge === 'replace' || !this.raw ? { ...event.raw } : mergeUsage(this.raw, event.raw);
    const reading = readUsage(next, event.shape);
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
