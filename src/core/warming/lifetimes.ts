/** Warm this long before the lifetime ends: room for a slow request, and for clocks that differ (each route states how long
 * its prefix lives: its AttemptRules.warming). */
export const WARM_LEAD_MS = 30_000;
