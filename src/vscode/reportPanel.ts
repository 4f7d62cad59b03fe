/**
 * "OpenCode: Show Session Report": one webview per conversation, its tab named after it, rendered from
 * core/report (data and HTML); this file only opens panels, answers the page's two messages (replay a what-if,
 * write the chosen values to the user's settings) and follows the conversation: each new request is a refresh
 * that returns at once; the update after it steps the report's figures (reportFigures.ts) by that request, in
 * slices that yield to the extension host. Conversations come from memory (RequestLog) and, with
 * opencode.recordRequests on, from the recordings on disk (recordings.ts).
 */
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type { QuotaService } from '../core/quota/quotaService';
import { pricesFor } from '../core/cost/requestCost';
import { reportDataOf, whatIfOf, whatIfSettings, type ReportData } from '../core/report/reportData';
import { DEFAULT_CACHED_PRICE } from '../core/report/totals';
import { basisKey, catchUp, ConversationFigures, type TrackedReplay } from '../core/report/reportFigures';
import { reportHtml } from '../core/report/reportHtml';
import { parseReportMessage } from '../core/report/reportMessages';
import { conversationTitle, MAX_CONVERSATIONS, type ConversationLog, type RequestLog } from '../core/report/requestLog';
import type { SizeMemo } from '../core/trim/messageSize';
import { BoundedMap } from '../core/util/boundedMap';
import { listRecordings, readRecordingFile, type RecordingFile } from './recordings';
import { pickItems } from './reportList';
import type { ConversationIndex } from '../core/report/conversationIndex';
import type { SettingsReader } from './settingsReader';
import { type EndpointCatalog } from '../core/routeId';

/** Report ids of conversations read from a recording: this prefix and the file's path. */
const RECORDED = 'recorded:';

/** How long one slice of replay may hold the extension host before it yields. */
const SLICE_MS = 8;

interface OpenReport {
  panel: vscode.WebviewPanel;
  chosen?: { headroom: number; step: number };
  notice?: string;
  figures?: ConversationFigures;
  /** The chosen values' replay, for the figures it was laid with. */
  chosenReplay?: { key: string; replay: TrackedReplay };
  /** An update is running; `again`: something changed meanwhile, run once more when it ends. */
  updating?: Promise<void>;
  again?: boolean;
  data?: ReportData;
}

export class ReportPanels implements vscode.Disposable {
  private readonly open = new Map<string, OpenReport>();
  /** Recordings read into reports, by report id. */
  private readonly recorded = new BoundedMap<string, ConversationLog>(MAX_CONVERSATIONS);
  /** The engine's size memo, once the engine exists: the replays measure nothing the live trim measured. */
  private sizes?: SizeMemo;

  constructor(
    private readonly requests: RequestLog,
    private readonly settings: SettingsReader,
    private readonly quota: QuotaService,
    private readonly log: vscode.LogOutputChannel,
    /** The extension's log folder, where opencode.recordRequests writes. */
    private readonly logDir?: string,
    /** Whose model data prices a model (by the id the request log holds: its pick id). */
    private readonly catalogOfModel: (modelId: string) => EndpointCatalog | undefined = () => undefined,
    /** The list of this window's and earlier windows' conversations (conversationIndex.ts); without it, memory's. */
    private readonly index?: ConversationIndex,
  ) {}

  /**
   * Opens (or reveals) the report of `sessionId` ('latest': the conversation of the last request), else asks
   * which recent conversation; returns the data shown.
   */
  async show(sessionId?: string): Promise<ReportData | undefined> {
    const wanted = sessionId === 'latest' ? this.requests.latest()?.sessionId : sessionId;
    const id = wanted && this.requests.get(wanted) ? wanted : await this.pick();
    if (!id || (id.startsWith(RECORDED) && !this.loadRecording(id.slice(RECORDED.length), id))) return undefined;
    let report = this.open.get(id);
    if (report) report.panel.reveal();
    else {
      const panel = vscode.window.createWebviewPanel('opencode.report', this.title(id), vscode.ViewColumn.Active, { enableScripts: true, localResourceRoots: [] });
      report = { panel };
      this.open.set(id, report);
      panel.onDidDispose(() => this.open.delete(id));
      panel.webview.onDidReceiveMessage((message) => void this.answer(id, message));
    }
    await this.update(id);
    return report.data;
  }

  useSizes(memo: SizeMemo): void {
    this.sizes = memo;
  }

  /** A conversation got a new request: its open report follows (returns at once; the update runs after). */
  refresh(sessionId: string): void {
    if (this.open.has(sessionId)) void this.update(sessionId);
  }

  /** Something every report shows changed (the quota): render the open ones again. */
  refreshAll(): void {
    for (const id of this.open.keys()) void this.update(id);
  }

  /** The tab's name: the conversation's first words (two reports never share the generic title). */
  private title(id: string, log = this.conversation(id)): string {
    const name = log ? conversationTitle(log) : id.slice(0, 12);
    return `${log?.recordedFile ? 'Recorded report' : 'Report'}: ${name}`;
  }

  /** Brings the report up to date: at most one update runs per report; changes meanwhile run it once more. */
  private update(id: string): Promise<void> {
    const report = this.open.get(id);
    if (!report) return Promise.resolve();
    if (report.updating) {
      report.again = true;
      return report.updating;
    }
    const run = async (): Promise<void> => {
      do {
        report.again = false;
        await this.catchUpAndRender(id, report);
      } while (report.again && this.open.get(id) === report);
    };
    report.updating = run().finally(() => (report.updating = undefined));
    return report.updating;
  }

  private async catchUpAndRender(id: string, report: OpenReport): Promise<void> {
    const log = this.conversation(id);
    const last = log?.records[log.records.length - 1];
    if (!log || !last) return;
    const settings = this.settings.current;
    if (!report.figures || report.figures.key !== basisKey(settings, last) || report.figures.stale(log)) {
      report.figures = new ConversationFigures(settings, last, log, this.sizes);
      report.chosenReplay = undefined;
    }
    const figures = report.figures;
    const chosen = report.chosen && whatIfSettings(report.chosen.headroom, report.chosen.step);
    const chosenKey = `${figures.key}|${JSON.stringify(chosen)}`;
    if (chosen && report.chosenReplay?.key !== chosenKey) report.chosenReplay = { key: chosenKey, replay: figures.whatIfReplay(log, chosen) };
    const extra = chosen && report.chosenReplay ? [report.chosenReplay.replay] : [];
    const caughtUp = await catchUp((deadline) => figures.advance(log, deadline, extra), SLICE_MS, () => this.open.get(id) !== report || report.figures !== figures);
    if (caughtUp) this.render(report, log, figures, extra[0]);
  }

  private async pick(): Promise<string | undefined> {
    this.requests.flushAdded();
    const listed = this.index?.list() ?? this.requests.list().map((l) => ({ sessionId: l.sessionId, name: conversationTitle(l), modelId: l.modelId, requests: l.added, firstAt: l.records[0]?.at ?? 0, lastAt: l.records[l.records.length - 1]?.at ?? 0 }));
    const recordings = this.recordings();
    const items = pickItems({ listed, inMemory: (id) => this.requests.get(id) !== undefined, recordings, recordedId: (file) => `${RECORDED}${file}` });
    if (items.length === 0) {
      const recordHint = this.settings.current.recordRequests ? '' : ' (Turn on opencode.recordRequests to keep conversations across restarts.)';
      void vscode.window.showInformationMessage(`OpenCode: no requests in this window yet. Chat with an OpenCode model (for example @opencode in the chat view), then open the report.${recordHint}`);
      return undefined;
    }
    if (items.length === 1 && this.requests.get(items[0].id)) return items[0].id;
    const picked = (await vscode.window.showQuickPick(items, { title: 'OpenCode: which conversation?', placeHolder: 'Type to search conversations by their first words or model', matchOnDescription: true, matchOnDetail: true }))?.id;
    if (picked && !picked.startsWith(RECORDED) && !this.requests.get(picked)) {
      const hint = this.settings.current.recordRequests ? '' : ' Turn on opencode.recordRequests to keep every conversation\'s requests across restarts.';
      void vscode.window.showInformationMessage(`OpenCode: that conversation's requests are no longer in memory (the report keeps the last ${MAX_CONVERSATIONS} conversations in full, and none from an earlier window).${hint}`);
      return undefined;
    }
    return picked;
  }

  /** The recordings on disk, when opencode.recordRequests is on. */
  private recordings(): RecordingFile[] {
    return this.settings.current.recordRequests && this.logDir ? listRecordings(this.logDir) : [];
  }

  /** Reads and validates a recording; a bad one is an error message and a [report] line, never a panel. */
  private loadRecording(file: string, id: string): boolean {
    const result = readRecordingFile(file, this.settings.current);
    if (!result.ok) {
      this.log.warn(`[report] ${result.reason}`);
      void vscode.window.showErrorMessage(`OpenCode: ${result.reason} The file was left as it is.`);
      return false;
    }
    this.recorded.set(id, result.log);
    return true;
  }

  private conversation(id: string): ConversationLog | undefined {
    return id.startsWith(RECORDED) ? this.recorded.peek(id) : this.requests.get(id);
  }

  private render(report: OpenReport, log: ConversationLog, figures: ConversationFigures, chosenReplay: TrackedReplay | undefined): void {
    // The endpoint's own prices (Go and Zen price some models differently).
    const prices = pricesFor(log.modelId, this.catalogOfModel(log.modelId));
    const data = reportDataOf(log, figures, DEFAULT_CACHED_PRICE, prices);
    const last = log.records[log.records.length - 1];
    const chosen = report.chosen ?? { headroom: last.headroom, step: last.cutStep };
    const result = report.chosen && chosenReplay ? whatIfOf(figures, chosenReplay, whatIfSettings(chosen.headroom, chosen.step), DEFAULT_CACHED_PRICE, prices) : undefined;
    const nonce = randomBytes(16).toString('base64');
    report.panel.title = this.title(log.sessionId, log);
    report.panel.webview.html = reportHtml({ data, whatIf: result, quota: this.quota.current, chosen, notice: report.notice, nonce });
    report.data = data;
  }

  private async answer(sessionId: string, raw: unknown): Promise<void> {
    const message = parseReportMessage(raw);
    const report = this.open.get(sessionId);
    if (!message || !report) return;
    report.chosen = { headroom: message.headroom, step: message.step };
    report.notice = undefined;
    if (message.type === 'apply') {
      const values = Object.entries(whatIfSettings(message.headroom, message.step)).map(([key, value]) => [`historyTrim.${key}`, value]);
      await this.settings.write(Object.fromEntries(values), vscode.ConfigurationTarget.Global);
      report.notice = `Wrote headroom ${message.headroom} and cut step ${message.step} to your user settings (opencode.historyTrim.*).`;
      this.log.info(`[report] what-if values written to user settings: headroom=${message.headroom} step=${message.step}`);
    }
    await this.update(sessionId);
  }

  dispose(): void {
    for (const { panel } of this.open.values()) panel.dispose();
    this.open.clear();
  }
}
