/**
 * The session report page: plain HTML from the report data, styled with the theme's CSS variables, under a
 * strict Content-Security-Policy (nothing remote; the one style block and the one small script carry a
 * nonce). Native form controls keep it keyboard accessible; the chart has a table behind it for screen
 * readers. The page never computes anything: the extension re-renders it with each what-if answer.
 */
import type { Quota } from '../quota/goUsage';
import { formatReset } from '../quota/quotaText';
import { formatUsd } from '../cost/requestCost';
import { chartSvg } from './chartSvg';
import { RECORDED_MODEL } from './recordedConversation';
import type { ReportData, WhatIf } from './reportData';
import type { RequestRecord } from './requestLog';
import type { SimSummary } from './simulate';
import { routeLabel } from './statusText';
import { esc, whole } from './svg';

export interface ReportPage {
  data: ReportData;
  whatIf?: WhatIf;
  quota?: Quota;
  /** What the what-if form shows (the last choice, else the values in force). */
  chosen: { headroom: number; step: number };
  /** A line under the what-if form, e.g. "Wrote … to your user settings." */
  notice?: string;
  nonce: string;
}

const n = (v: number): string => (Number.isFinite(v) ? whole(v) : '∞');
const pct = (v: number): string => `${(v * 100).toFixed(1)}%`;
/** A figure computed from list prices is marked "≈"; without prices the cell says so. */
const usdCell = (usd: number | undefined): string => (usd === undefined ? 'no price' : `≈${formatUsd(usd)}`);

/** The totals' dollar rows: spent (≈ when any request's cost was computed), saved by the cache, warming and image descriptions apart. */
function dollarRows(data: ReportData): [string, string, string][] {
  const { spent, unpriced, cacheSaved, warming, describing } = data.dollars;
  const spentNote = spent?.computed ? 'some or all computed from list prices' : "OpenCode's cost frames";
  const rows: [string, string, string][] = [
    ['dollars spent', spent ? `${spent.computed ? '≈' : ''}${formatUsd(spent.usd)}` : 'unknown', spent ? `${spentNote}${unpriced > 0 ? `; ${n(unpriced)} request(s) without a cost` : ''}` : 'no request had a cost'],
    ['saved by the cache', usdCell(cacheSaved), 'cached tokens at the input price minus the same at the cache-read price'],
  ];
  if (warming) rows.push(['warming requests', `${n(warming.requests)} (${formatUsd(warming.costUsd)})`, 'counted apart: not in the figures above']);
  if (describing) rows.push(['image descriptions', `${n(describing.requests)} (${formatUsd(describing.costUsd)})`, 'a vision model described images for this text-only model; counted apart']);
  return rows;
}

function totalsSection(data: ReportData): string {
  const t = data.totals;
  const rows: [string, string, string][] = [
    ['requests', n(t.requests), 'answers with usage'],
    ['prompt tokens billed cold', n(t.coldTokens), 'full price'],
    ['prompt tokens from cache', n(t.cachedTokens), 'cache-read price'],
    ['completion tokens', n(t.completionTokens), ''],
    ['cut moves', n(t.cutMoves), 'each re-bills the prompt cold'],
    ['mean cache hit', pct(t.meanHit), ''],
    ['sent over budget', n(t.overCeiling), 'ERROR lines'],
    ...dollarRows(data),
  ];
  return `<table class="totals" id="totals"><caption>Totals (${data.recordedFile ? 'replayed from the recording' : 'what the [usage] lines said'})</caption>${rows.map(([k, v, note]) => `<tr><th scope="row">${k}</th><td data-key="${esc(k)}">${v}</td><td class="note">${note}</td></tr>`).join('')}</table>`;
}

function summaryCells(s: SimSummary, cost: number, usd: number | undefined): string {
  return `<td>${n(s.cutMoves)}</td><td>${pct(s.meanHit)}</td><td>${n(s.meanKept)}</td><td>${n(s.coldTokens)}</td><td>${n(s.cachedTokens)}</td><td>${n(cost)}</td><td class="usd">${usdCell(usd)}</td>`;
}

function costSection(data: ReportData): string {
  const head = '<tr><th scope="col">policy</th><th scope="col">cut moves</th><th scope="col">mean hit</th><th scope="col">mean context kept</th><th scope="col">cold tokens</th><th scope="col">cached tokens</th><th scope="col">cost</th><th scope="col">prompt dollars</th><th scope="col">vs no trim</th><th scope="col">over budget</th></tr>';
  const rows = data.costs.map((row) => `<tr data-policy="${row.id}"><th scope="row">${esc(row.label)} (replayed)</th>${summaryCells(row.summary, row.cost, row.usd)}<td>${pct(row.relative)}</td><td>${n(row.overBudget)}</td></tr>`);
  return `<table class="costs" id="costs"><caption>The same requests with other trims</caption>${head}${rows.join('')}</table>` +
    `<p class="note">Cost = cold tokens + ${data.cachedPrice} × cached tokens (cache reads are billed at about a tenth). ` +
    `Prompt dollars = cold tokens at the model's input price + cached tokens at its cache-read price${data.priced ? '' : ' (this model has no known price)'}; ` +
    `output tokens are left out, since they are the same for every policy. Replays use the extension's estimator scaled to what the endpoint reported, and an exact-prefix cache model; no trim would have been refused wherever it is over budget.</p>`;
}

function whatIfSection(page: ReportPage): string {
  const { chosen, whatIf } = page;
  const form = `<form id="whatif"><fieldset><legend>What if</legend>` +
    `<label>headroom tokens <input id="headroom" type="number" min="0" max="1000000" step="1" value="${chosen.headroom}"></label> ` +
    `<label>cut step tokens <input id="step" type="number" min="0" max="1000000" step="1" value="${chosen.step}"></label> ` +
    `<button type="submit" id="replay">Replay</button> <button type="button" id="apply">Write to settings</button></fieldset></form>`;
  const notice = page.notice ? `<p role="status" id="notice">${esc(page.notice)}</p>` : '';
  if (!whatIf) return form + notice;
  const head = '<tr><th scope="col"></th><th scope="col">headroom</th><th scope="col">step</th><th scope="col">cut moves</th><th scope="col">mean hit</th><th scope="col">mean context kept</th><th scope="col">cold tokens</th><th scope="col">cached tokens</th><th scope="col">cost</th><th scope="col">prompt dollars</th></tr>';
  const cell = (used: number, asked: number | undefined): string => (asked === undefined || asked === used ? `<td>${n(used)}</td>` : `<td class="capped">${n(used)} <span class="note">(asked ${n(asked)})</span></td>`);
  const row = (label: string, side: WhatIf['current']): string => `<tr><th scope="row">${label}</th>${cell(side.headroom, side.asked?.headroom)}${cell(side.step, side.asked?.step)}${summaryCells(side.summary, side.cost, side.usd)}</tr>`;
  const capped = whatIf.chosen.asked || whatIf.current.asked
    ? `<p class="note" id="whatif-capped">Headroom and cut step are each capped at 10% of the budget (${n(page.data.records[page.data.records.length - 1]?.budget ?? 0)} tokens): the replay used the capped values, and the trim would too.</p>`
    : '';
  return form + notice + `<table id="whatif-result" aria-live="polite">${head}${row('now', whatIf.current)}${row('chosen', whatIf.chosen)}</table>${capped}`;
}

function quotaSection(quota: Quota | undefined): string {
  if (!quota) return '';
  if (quota.state === 'unknown') return `<h2>OpenCode Go quota</h2><p>unknown (${esc(quota.reason)})</p>`;
  const rows = quota.windows.map((w) => `<tr><th scope="row">${w.name}</th><td><meter min="0" max="100" high="90" value="${w.percent}">${w.percent}%</meter> ${Math.round(w.percent)}%${w.status === 'rate-limited' ? ' <strong>rate-limited</strong>' : ''}</td><td>resets ${esc(formatReset(w.resetsAt))}</td></tr>`);
  return `<h2>OpenCode Go quota</h2><table id="quota">${rows.join('')}</table>`;
}

/** The routes the conversation's requests took, in order of first use ('' when the records carry none). */
export function routesOf(records: readonly RequestRecord[]): string[] {
  return [...new Set(records.map((r) => r.route).filter((r): r is string => !!r))];
}

/** A record's row, kept while the record lives: records never change, and a followed report re-renders every request. */
const rowsKept = new WeakMap<RequestRecord, { at: string; html: string }>();

function requestRow(r: RequestRecord, i: number, withRoute: boolean): string {
  const at = `${i}|${withRoute}`;
  const kept = rowsKept.get(r);
  if (kept?.at === at) return kept.html;
  const route = withRoute ? `<td>${esc(r.route ? routeLabel(r.route) : '—')}</td>` : '';
  const html = `<tr><td>${i + 1}</td><td>${n(r.promptTokens)}</td><td>${n(r.cachedTokens)}</td><td>${pct(r.cacheHit)}</td><td>${n(r.completionTokens)}</td><td>${r.removed > 0 ? (r.cutMoved ? 'moved' : 'held') : '—'}</td><td>${n(r.removed)}</td>${route}</tr>`;
  rowsKept.set(r, { at, html });
  return html;
}

function requestTable(data: ReportData): string {
  const withRoute = routesOf(data.records).length > 0;
  const rows = data.records.map((r, i) => requestRow(r, i, withRoute));
  const routeHead = withRoute ? '<th scope="col">route</th>' : '';
  return `<details><summary>Every request</summary><table id="requests"><tr><th scope="col">#</th><th scope="col">prompt</th><th scope="col">cached</th><th scope="col">hit</th><th scope="col">completion</th><th scope="col">cut</th><th scope="col">not sent</th>${routeHead}</tr>${rows.join('')}</table></details>`;
}

function headline(data: ReportData): string {
  const routes = routesOf(data.records);
  const route = routes.length ? ` · route ${routes.map((r) => `<code>${esc(routeLabel(r))}</code>`).join(', ')}` : '';
  if (data.recordedFile) {
    const budget = data.modelId === RECORDED_MODEL
      ? 'the budget is the fallback window (opencode.contextLimitFallback), since the recording does not name the model'
      : `the budget is the one <code>${esc(data.modelId)}</code> had (${n(data.records[data.records.length - 1]?.budget ?? 0)} tokens)`;
    return `<p role="note" id="recorded">Read from the request recording <code>${esc(data.recordedFile)}</code> (opencode.recordRequests), ${data.records.length} request(s). ` +
      'A recording holds what was sent, not what the endpoint answered: every figure below is this extension\'s trim replayed under your current settings, ' +
      `with its token estimator and an exact-prefix cache model; ${budget}.</p>`;
  }
  return `<p>Model <code>${esc(data.modelId)}</code> · conversation <code>${esc(data.sessionId.slice(0, 12))}</code> · ${data.records.length} request(s)${route}</p>`;
}

const STYLE = `body{font-family:var(--vscode-font-family);font-size:var(--vscode-font-size);color:var(--vscode-foreground);background:var(--vscode-editor-background);padding:0 16px 24px}
table{border-collapse:collapse;margin:8px 0}th,td{padding:2px 10px;text-align:right;border-bottom:1px solid var(--vscode-panel-border)}th[scope=row]{text-align:left}caption{text-align:left;font-weight:600;padding:4px 0}
.note{color:var(--vscode-descriptionForeground)}.chart{width:100%;max-width:900px;height:auto}
.grid{stroke:var(--vscode-panel-border);stroke-width:1}.axis{fill:var(--vscode-descriptionForeground);font-size:11px}
.cached{fill:var(--vscode-charts-green)}.cold{fill:var(--vscode-charts-orange)}.hit{fill:none;stroke:var(--vscode-charts-blue);stroke-width:2}
.move{fill:var(--vscode-charts-red)}.budget{stroke:var(--vscode-charts-yellow);stroke-width:2}.lowwater{stroke:var(--vscode-charts-purple);stroke-width:1.5;stroke-dasharray:6 4}
.legend span{margin-right:14px}.sw{display:inline-block;width:10px;height:10px;margin-right:4px}
.sw.cached{background:var(--vscode-charts-green)}.sw.cold{background:var(--vscode-charts-orange)}.sw.hit{background:var(--vscode-charts-blue)}.sw.move{background:var(--vscode-charts-red)}.sw.budget{background:var(--vscode-charts-yellow)}.sw.lowwater{background:var(--vscode-charts-purple)}
input{background:var(--vscode-input-background);color:var(--vscode-input-foreground);border:1px solid var(--vscode-input-border,transparent);width:9em}
button{background:var(--vscode-button-background);color:var(--vscode-button-foreground);border:none;padding:4px 12px;cursor:pointer}button:focus,input:focus,summary:focus{outline:1px solid var(--vscode-focusBorder)}
fieldset{border:1px solid var(--vscode-panel-border)}`;

// Each answer replaces the page; the pressed button gets the focus back, so keyboard users keep their place.
const SCRIPT = `const vscode=acquireVsCodeApi();const v=()=>({headroom:Number(document.getElementById('headroom').value),step:Number(document.getElementById('step').value)});
const back=(vscode.getState()||{}).focus;if(back){vscode.setState({});document.getElementById(back)?.focus();}
document.getElementById('whatif').addEventListener('submit',e=>{e.preventDefault();vscode.setState({focus:'replay'});vscode.postMessage({type:'whatIf',...v()});});
document.getElementById('apply').addEventListener('click',()=>{vscode.setState({focus:'apply'});vscode.postMessage({type:'apply',...v()});});`;

const LEGEND = '<p class="legend" aria-hidden="true"><span><i class="sw cached"></i>cached prompt</span><span><i class="sw cold"></i>uncached prompt</span><span><i class="sw hit"></i>cache hit (right axis)</span><span><i class="sw move"></i>cut moved</span><span><i class="sw budget"></i>budget</span><span><i class="sw lowwater"></i>low-water mark</span></p>';

export function reportHtml(page: ReportPage): string {
  const { data, nonce } = page;
  const csp = `default-src 'none'; img-src data:; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}';`;
  return `<!DOCTYPE html><html lang="en"><head><meta charset="UTF-8"><meta http-equiv="Content-Security-Policy" content="${csp}">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1.0"><title>OpenCode session report</title><style nonce="${nonce}">${STYLE}</style></head><body>` +
    `<h1>Session report</h1>${headline(data)}` +
    `${chartSvg(data.records)}${LEGEND}${totalsSection(data)}${costSection(data)}${whatIfSection(page)}${quotaSection(page.quota)}${requestTable(data)}` +
    `<script nonce="${nonce}">${SCRIPT}</script></body></html>`;
}
