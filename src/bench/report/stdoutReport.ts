/** The readable report printed to stdout: the same tables as docs/benchmarks.md, as plain text. */
import { messagesText } from './messagesReport';
import { pausesText } from './pausesReport';
import { refusalsText } from './refusalsReport';
import { stateWritesMarkdown } from '../state/stateWrites';
import { agentRegimeTable } from '../agent/agentRegime';
import type { BenchResults } from '../results';
import { acceptanceTable, accuracyTable, pathologicalCountTable, policyTable, sessionsTable, speedTable, sweepTable, textCountTable } from './benchTables';
import { acceptanceSummary, regimeFindings } from './findings';
import { sessionBarSection } from './sessionBar';
import { renderText } from './tables';

const heading = (text: string): string => `\n== ${text} ${'='.repeat(Math.max(0, 100 - text.length))}\n`;

export function stdoutReport(results: BenchResults): string {
  const parts: string[] = [heading('Sessions'), renderText(sessionsTable(results.regimes))];
  for (const r of results.regimes) {
    parts.push(heading(`(${r.regime.id}) ${r.regime.title} — B=${r.regime.budgetTokens}`), renderText(policyTable(r)));
    const findings = regimeFindings(r);
    if (findings.losses.length) parts.push(`  where we do not win: ${findings.losses.join('; ')}.`, `  why: ${findings.reasons.join('; ')}.`);
  }
  for (const r of results.regimes.filter((x) => x.textCount.length > 0)) {
    parts.push(heading(`(${r.regime.id}) with the text-only token count`), renderText(textCountTable(r)));
  }
  for (const r of results.regimes.filter((x) => x.sweep.length > 0)) {
    parts.push(heading(`Sweep (${r.regime.id})`), renderText(sweepTable(r)));
  }
  const a = results.acceptance;
  parts.push(heading('Acceptance bar'), renderText(acceptanceTable(a)), `overall (cache-model count, as specified): ${a.pass ? 'PASS' : 'FAIL'}; with the text count: ${a.textCountPass ? 'PASS' : 'FAIL'}`, acceptanceSummary(a, results.regimes));
  parts.push(heading('Acceptance bar'), sessionBarSection(results.regimes));
  if (results.messages) parts.push(heading(`Messages regime (${results.messages.regime.title})`), messagesText(results.messages));
  if (results.pauses) parts.push(heading(`Pause regime (${results.pauses.regime.title})`), pausesText(results.pauses));
  if (results.refusals) parts.push(heading(`Refusal regime (${results.refusals.spec.title})`), refusalsText(results.refusals));
  if (results.stateWrites) parts.push(heading('Saved-state write cost per answer'), stateWritesMarkdown(results.stateWrites));
  if (results.agent) parts.push(heading('Agent regime (pruning in epochs)'), agentRegimeTable(results.agent));
  parts.push(heading('Speed'), renderText(speedTable(results.speed)));
  parts.push(heading('Token counting accuracy (error vs o200k)'), renderText(accuracyTable(results.accuracy)));
  parts.push(heading('Token counting on pathological text (provideTokenCount)'), renderText(pathologicalCountTable(results.accuracy)));
  const [loadBefore, loadAfter] = results.environment.loadAverage;
  parts.push(`\nbenchmark wall time: ${(results.benchMs / 1000).toFixed(1)} s (load average ${loadBefore.toFixed(1)} before, ${loadAfter.toFixed(1)} after, ${results.environment.cpus} CPUs)\n`);
  return parts.join('\n');
}
