/** The result tables, shared by the stdout report and docs/benchmarks.md. */
import { BEFORE_CHARS, COUNT_BAR_MS_PER_100K } from '../accuracy/pathologicalCount';
import type { TokenAccuracy } from '../accuracy/tokenAccuracy';
import type { PolicyFigures } from '../metrics/policyFigures';
import type { BenchResults } from '../results';
import type { RegimeResult } from '../run/compareRegime';
import { FEWER_MOVES_BAR, TRIM_BAR, type Acceptance, type RegimeVerdict } from './acceptance';
import { kTokens, mb, ms, pct, range, signedPct, whole } from './format';
import type { Table } from './tables';
import { REPORT_BAR } from '../speed/reportSpeed';

/** Cut moves, with the moves back to a shorter cut called out. */
const movesCell = (f: PolicyFigures): string => (f.backMoves ? `${f.cutMoves} (${f.backMoves} back)` : String(f.cutMoves));

export function sessionsTable(regimes: readonly RegimeResult[]): Table {
  return {
    headers: ['regime', 'budget B', 'messages (req 0)', 'tokens (req 0)', 'bytes (req 0)', 'mean unit', 'growth/request', 'system+tools+anchor', 'text-count session: msgs / tokens'],
    numeric: [false, true, true, true, true, true, true, true, true],
    rows: regimes.map((r) => [
      `(${r.regime.id}) ${r.regime.title}`,
      whole(r.regime.budgetTokens),
      whole(r.session.prefillMessages),
      whole(r.session.prefillTokens),
      mb(r.session.prefillBytes),
      whole(r.session.meanUnitTokens),
      whole(r.session.meanGrowthTokens),
      whole(r.session.headTokens),
      r.textSession ? `${whole(r.textSession.prefillMessages)} / ${whole(r.textSession.prefillTokens)}` : '—',
    ]),
  };
}

export function parametersTable(result: RegimeResult): Table {
  return {
    headers: ['policy', `parameters at B = ${whole(result.regime.budgetTokens)}`],
    rows: result.figures.map((f) => [f.label, f.params]),
  };
}

export function policyTable(result: RegimeResult): Table {
  return {
    headers: ['policy', 'cut moves', 'mean hit', 'p10 hit', 'hit <50%', 'mean kept', 'min kept', 'over B (cache model / text count)', 'landings (o200k)', 'cost vs no trim'],
    numeric: [false, true, true, true, true, true, true, true, true, true],
    rows: result.figures.map((f: PolicyFigures) => [
      f.label,
      movesCell(f),
      pct(f.meanHit),
      pct(f.p10Hit),
      String(f.under50),
      kTokens(f.meanKept),
      kTokens(f.minKept),
      `${f.overBudget} / ${f.overBudgetText}`,
      range(f.landings, kTokens),
      f.costRelative.toFixed(3),
    ]),
  };
}

export function sweepTable(result: RegimeResult): Table {
  return {
    headers: ['ours: step, headroom ratio', 'parameters', 'cut moves', 'mean hit', 'hit <50%', 'mean kept', 'over B', 'cost vs no trim'],
    numeric: [false, false, true, true, true, true, true, true],
    rows: result.sweep.map((f) => [f.label, f.params, movesCell(f), pct(f.meanHit), String(f.under50), kTokens(f.meanKept), String(f.overBudget), f.costRelative.toFixed(3)]),
  };
}

function verdictRows(verdicts: readonly RegimeVerdict[], count: string): string[][] {
  const mark = (pass: boolean): string => (pass ? 'PASS' : 'FAIL');
  const rows = verdicts.map((v) => [
    `(${v.regime}) cut moves ours vs leading, ${count}`,
    `${v.oursMoves} vs ${v.leadingMoves} (${signedPct(-v.fewerMoves * 100, 0)})`,
    FEWER_MOVES_BAR,
    mark(v.movesPass),
  ]);
  for (const v of verdicts) {
    const note = v.leadingOverBudget > 0 ? ` (leading over B on ${v.leadingOverBudget} requests)` : '';
    rows.push([`(${v.regime}) mean kept ours vs leading, ${count}`, `${kTokens(v.oursMeanKept)} vs ${kTokens(v.leadingMeanKept)}${note}`, '≥ leading', mark(v.keptPass)]);
  }
  return rows;
}

export function acceptanceTable(acceptance: Acceptance): Table {
  const mark = (pass: boolean): string => (pass ? 'PASS' : 'FAIL');
  return {
    headers: ['check', 'measured', 'bar', 'result'],
    rows: [
      ...verdictRows(acceptance.regimes, 'cache-model count'),
      ...verdictRows(acceptance.regimesTextCount, 'text count'),
      ['warm trim, median', `${ms(acceptance.warmMedianMs)} ms`, `≤ ${TRIM_BAR.warmTrimMs} ms`, mark(acceptance.warmPass)],
      ['cold trim (fresh SizeMemo), median', `${ms(acceptance.coldMedianMs)} ms`, `≤ ${TRIM_BAR.coldTrimMs} ms`, mark(acceptance.coldPass)],
      [`session report open, added per request (${REPORT_BAR.requests}-request agent session), median`, `${ms(acceptance.reportMedianMs)} ms`, `≤ ${REPORT_BAR.addedMsPerRequest} ms`, mark(acceptance.reportPass)],
    ],
  };
}

/** The rivals again, with the bench's own text-only count (message text, no tool-call markers). */
export function textCountTable(result: RegimeResult): Table {
  return policyTable({ ...result, figures: result.textCount });
}

export function speedTable(speed: BenchResults['speed']): Table {
  const t = speed.trim;
  const timing = (label: string, s: typeof t.trimWarm): string[] => [label, `${ms(s.medianMs)} ms`, `${ms(s.p95Ms)} ms`, `${ms(s.maxMs)} ms`, String(s.samples)];
  const a = speed.activation;
  const m = speed.memory;
  const art = speed.artifacts;
  const r = speed.report;
  return {
    headers: ['measure', 'median', 'p95', 'max', 'samples'],
    numeric: [false, true, true, true, true],
    rows: [
      [`trim (planTrim), first call (JIT + memo cold), ${t.messages} msgs / ${mb(t.bytes)}`, `${ms(t.trimFirstCallMs)} ms`, '', '', '1'],
      timing('trim (planTrim), cold memo', t.trimCold),
      timing('trim (planTrim), warm memo, per request', t.trimWarm),
      ['prepareRequest (convert + trim + estimate), first call', `${ms(t.prepareFirstCallMs)} ms`, '', '', '1'],
      timing('prepareRequest (convert + trim + estimate), cold memo', t.prepareCold),
      timing('prepareRequest (convert + trim + estimate), warm', t.prepareWarm),
      timing(`session report open, per request (${r.requests} requests, ${Math.round(r.toolResultBytes / 1000)} KB tool results, ${mb(r.historyBytes)} history)`, r.perRequest),
      timing('session report open, per request, last 50 requests', r.lastRequests),
      [`session report, whole replay at request ${r.requests} (the previous report did this on every request)`, `${ms(r.wholeReplayMs)} ms`, '', '', '1'],
      [`previous report, per request at request ${r.requests} (before this change)`, `${ms(r.beforeMs)} ms`, '', '', '1'],
      ['require dist/extension.js', `${ms(a.requireMs)} ms`, '', '', '1'],
      ['activate()', `${ms(a.activateMs)} ms`, '', '', '1'],
      ['first token count (lazy tokenizer load)', `${ms(a.firstTokenCountMs)} ms`, '', '', '1'],
      ['second token count', `${ms(a.secondTokenCountMs)} ms`, '', '', '1'],
      [
        `SizeMemo after ${m.requests} requests: ${m.memoEntries} entries, heap ${m.heapBeforeMB.toFixed(1)} → ${m.heapAfterMB.toFixed(1)} MB${m.gcExposed ? '' : ' (no --expose-gc)'}`,
        `${m.memoRetainedMB.toFixed(2)} MB`,
        '',
        '',
        `${Math.round(m.bytesPerEntry)} B/entry`,
      ],
      ['dist/extension.js + dist/tokenizer.js', `${mb(art.extensionBytes)} + ${mb(art.tokenizerBytes)}`, '', '', ''],
      ['.vsix', art.vsixBytes === undefined ? 'not built (npm run package)' : mb(art.vsixBytes), '', '', ''],
    ],
  };
}

export function accuracyTable(accuracy: TokenAccuracy): Table {
  const err = (value: number): string => signedPct(value);
  return {
    headers: ['text', 'chars', 'o200k tokens', 'our estimate', 'exact counter', 'chars/4', 'chars/4 + 10%'],
    numeric: [false, true, true, true, true, true, true],
    rows: accuracy.rows.map((r) => [r.kind, whole(r.chars), whole(r.o200k), err(r.estimateErrorPct), err(r.exactErrorPct), err(r.chars4ErrorPct), err(r.chars4Plus10ErrorPct)]),
  };
}

/** provideTokenCount's count on pathological text: ours per 100K characters against the bar, the path before beside it. */
export function pathologicalCountTable(accuracy: TokenAccuracy): Table {
  return {
    headers: ['text', 'ms per 100K chars', `bar ≤ ${COUNT_BAR_MS_PER_100K} ms`, `before: ms for ${BEFORE_CHARS.toLocaleString('en-US')} chars`, 'count vs exact'],
    numeric: [false, true, false, true, true],
    rows: (accuracy.pathological ?? []).map((r) => [r.text, ms(r.msPer100K), r.pass ? 'PASS' : 'FAIL', ms(r.beforeMs), signedPct(r.errorPct, 2)]),
  };
}
