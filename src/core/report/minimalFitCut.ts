/**
 * Minimal fit, the rule both extensions started from (the report replays it, the benchmark compares with it):
 * drop the oldest units until the payload fits the budget and the byte ceiling, and not one more. At the
 * ceiling it moves the cut on almost every request.
 */
import type { SizedHistory } from './unitCut';

/** Minimal fit: drop the oldest units until the payload fits the budget and the byte ceiling. */
export function minimalFitDropUnits(history: SizedHistory, budget: number, maxBytes: number): number {
  const { total, units } = history;
  let dropUnits = 0;
  let tokens = total.tokens;
  let bytes = total.bytes;
  while (dropUnits < units.length && (tokens > budget || bytes > maxBytes)) {
    tokens -= units[dropUnits].tokens;
    bytes -= units[dropUnits].bytes;
    dropUnits++;
  }
  return dropUnits;
}
