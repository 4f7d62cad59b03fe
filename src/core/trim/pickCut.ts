/**
 * Where the cut goes, given the grid. The grid's lines are fixed points of the history: line k ends at the
 * first unit boundary at or past k × grid raw tokens dropped, counted from the oldest droppable unit, so
 * the same history always yields the same lines.
 *
 * Without a last cut (a stateless call): the smallest line that fits, plus extra grid moves. With one:
 *  - Hold: the conversation's last cut (minDrop units) is kept while its payload fits under the ceiling.
 *    The cut never moves back while the history only grows, whatever the calibration does.
 *  - Move: to the first grid line past the last cut whose payload lands at or below the low-water mark
 *    (budget − headroom), plus any extra grid moves the overflow sensor asked for.
 *    In steady state one grid move (cut step + headroom) already lands there, so the jump stays as long.
 */
import type { MessageSize } from './messageSize';
import type { Unit } from './units';

/** Raw tokens and bytes dropped with the oldest j units gone, for j = 0 … units. */
export interface Dropped {
  raw: number[];
  bytes: number[];
  /** Of raw, the native items' tokens (absent: none). */
  native?: number[];
}

export interface CutInputs {
  dropped: Dropped;
  /** Units dropped at each grid line, in order: line 0 drops nothing, the last drops every unit. */
  lines: number[];
  fullRaw: number;
  fullBytes: number;
  /** Units the conversation's last cut dropped; undefined = stateless (the smallest line that fits). */
  minDrop: number | undefined;
  extraGridMoves: number;
  /** Holding the last cut still changes what is sent (a previously pinned prompt is now dropped): then it must land low too. */
  holdIsMove?: boolean;
  /** Of fullRaw, the native items' tokens (not calibrated: calibratedTokens in historyTrim.ts). */
  fullNative?: number;
  fits: (raw: number, bytes: number, native: number) => boolean;
  landsLow: (raw: number, bytes: number, native: number) => boolean;
}

export function droppedSums(units: readonly Unit[], sizes: readonly MessageSize[]): Dropped {
  const dropped = { raw: [0], bytes: [0], native: [0] };
  let raw = 0;
  let bytes = 0;
  let native = 0;
  for (const unit of units) {
    for (let i = unit.start; i < unit.end; i++) {
      raw += sizes[i].tokens;
      bytes += sizes[i].bytes;
      native += sizes[i].nativeTokens ?? 0;
    }
    dropped.raw.push(raw);
    dropped.bytes.push(bytes);
    dropped.native.push(native);
  }
  return dropped;
}

/** Line k is the first unit boundary at or past k × grid raw tokens dropped; the last line drops all. */
export function gridLines(dropped: Dropped, rawGrid: number): number[] {
  const grid = Math.max(1, rawGrid);
  const units = dropped.raw.length - 1;
  const lines = [0];
  let nextLine = 1;
  for (let j = 1; j <= units; j++) {
    if (dropped.raw[j] >= nextLine * grid || j === units) {
      lines.push(j);
      nextLine = Math.floor(dropped.raw[j] / grid) + 1;
    }
  }
  return lines;
}

export function pickCut(inputs: CutInputs): { dropUnits: number; gridMoves: number } {
  const { dropped, lines, fullRaw, fullBytes } = inputs;
  const fullNative = inputs.fullNative ?? 0;
  const keptFits = (j: number, test: CutInputs['fits']): boolean => test(fullRaw - dropped.raw[j], fullBytes - dropped.bytes[j], fullNative - (dropped.native?.[j] ?? 0));
  if (inputs.minDrop === undefined) {
    let k = lines.findIndex((j) => keptFits(j, inputs.fits));
    if (k < 0) k = lines.length - 1;
    k = Math.min(lines.length - 1, k + Math.max(0, inputs.extraGridMoves));
    return { dropUnits: lines[k], gridMoves: k };
  }
  const minDrop = Math.min(inputs.minDrop, dropped.raw.length - 1);
  const holdFits = keptFits(minDrop, inputs.fits) && (!inputs.holdIsMove || keptFits(minDrop, inputs.landsLow));
  if (holdFits && inputs.extraGridMoves <= 0) return { dropUnits: minDrop, gridMoves: gridMovesAt(lines, minDrop) };
  let k = lines.findIndex((j) => j > minDrop && keptFits(j, inputs.landsLow));
  if (k < 0) k = lines.length - 1;
  // A move the overflow sensor forced counts as its first extra grid move.
  k = Math.min(lines.length - 1, k + Math.max(0, inputs.extraGridMoves - (holdFits ? 1 : 0)));
  const dropUnits = Math.max(minDrop, lines[k]);
  return { dropUnits, gridMoves: gridMovesAt(lines, dropUnits) };
}

function gridMovesAt(lines: readonly number[], dropUnits: number): number {
  let gridMoves = 0;
  lines.forEach((j, k) => {
    if (j <= dropUnits) gridMoves = k;
  });
  return gridMoves;
}
