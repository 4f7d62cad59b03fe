/**
 * "OpenCode: Show Session Report": one webview per conversation, rendered from core/report (data and HTML);
 * this file only opens panels, answers the page's two messages (replay a what-if, write the chosen values
 * to the user's settings) and re-renders when the conversation gets a new request. Conversations come from
 * memory (RequestLog) and, with opencode.recordRequests on, from the recordings on disk (recordings.ts).
 */
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type { QuotaService } from '../core/quota/quotaService';
import { reportData, whatIf, whatIfSettings, type ReportData } from '../core/report/reportData';
import { reportHtml } from '../core/report/reportHtml';
import { parseReportMessage } from '../core/report/reportMessages';
import { MAX_CONVERSATIONS, type ConversationLog, type RequestLog } from '../core/report/requestLog';
import { BoundedMap } from '../core/util/boundedMap';
import { listRecordings, readRecordingFile, type RecordingFile } from './recordings';
import type { SettingsReader } from './settingsReader';

/** Report ids of conversations read from a recording: this prefix and the file's path. */
const RECORDED = 'recorded:';

interface OpenReport {
  panel: vscode.WebviewPanel;
  chosen?: { headroom: number; step: number };
  notice?: string;
}

export class ReportPanels implements vscode.Disposable {
  private readonly open = new Map<string, OpenReport>();
  /** Recordings read into reports, by report id. */
  private readonly recorded = new BoundedMap<string, ConversationLog>(MAX_CONVERSATIONS);

  constructor(
    private readonly requests: RequestLog,
    private readonly settings: SettingsReader,
    private readonly quota: QuotaService,
    private readonly log: vscode.LogOutputChannel,
    /** The extension's log folder, where opencode.recordRequests writes. */
    private readonly logDir?: string,
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
      const panel = vscode.window.createWebviewPanel('opencode.report', 'OpenCode Session Report', vscode.ViewColumn.Active, { enableScripts: true, localResourceRoots: [] });
      report = { panel };
      this.open.set(id, report);
      panel.onDidDispose(() => this.open.delete(id));
      panel.webview.onDidReceiveMessage((message) => void this.answer(id, message));
    }
    return this.render(id);
  }

  /** A conversation got a new request: refresh its open report. */
  refresh(sessionId: string): void {
    if (this.open.has(sessionId)) this.render(sessionId);
  }

  /** Something every report shows changed (the quota): render the open ones again. */
  refreshAll(): void {
    for (const id of this.open.keys()) this.render(id);
  }

  private async pick(): Promise<string | undefined> {
    const logs = this.requests.list();
    const recordings = this.recordings().filter((r) => !this.requests.get(r.sessionId));
    if (logs.length === 0 && recordings.length === 0) {
      const recordHint = this.settings.current.recordRequests ? '' : ' (Turn on opencode.recordRequests to keep conversations across restarts.)';
      void vscode.window.showInformationMessage(`OpenCode: no requests in this window yet. Chat with an OpenCode model (for example @opencode in the chat view), then open the report.${recordHint}`);
      return undefined;
    }
    if (logs.length === 1 && recordings.length === 0) return logs[0].sessionId;
    const items = logs.map((l) => ({
      label: l.modelId,
      description: `${l.records.length} request(s), last at ${new Date(l.records[l.records.length - 1].at).toLocaleTimeString()}`,
      detail: l.input.find((m) => m.role === 'user' && typeof m.content === 'string')?.content?.toString().slice(0, 80),
      id: l.sessionId,
    }));
    const recorded = recordings.map((r) => ({
      label: `$(file) recorded ${r.sessionId.slice(0, 12)}`,
      description: `${Math.max(1, Math.round(r.bytes / 1024))} KiB, saved ${new Date(r.mtimeMs).toLocaleString()}`,
      detail: r.file,
      id: `${RECORDED}${r.file}`,
    }));
    return (await vscode.window.showQuickPick([...items, ...recorded], { title: 'OpenCode: which conversation?' }))?.id;
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

  private render(sessionId: string): ReportData | undefined {
    const report = this.open.get(sessionId);
    const log = this.conversation(sessionId);
    if (!report || !log) return undefined;
    const settings = this.settings.current;
    const data = reportData(log, settings);
    const last = log.records[log.records.length - 1];
    const chosen = report.chosen ?? { headroom: last.headroom, step: last.cutStep };
    const result = report.chosen ? whatIf(log, settings, whatIfSettings(chosen.headroom, chosen.step)) : undefined;
    const nonce = randomBytes(16).toString('base64');
    report.panel.webview.html = reportHtml({ data, whatIf: result, quota: this.quota.current, chosen, notice: report.notice, nonce });
    return data;
  }

  private async answer(sessionId: string, raw: unknown): Promise<void> {
    const message = parseReportMessage(raw);
    const report = this.open.get(sessionId);
    if (!message || !report) return;
    report.chosen = { headroom: message.headroom, step: message.step };
    report.notice = undefined;
    if (message.type === 'apply') {
      const config = vscode.workspace.getConfiguration('opencode');
      for (const [key, value] of Object.entries(whatIfSettings(message.headroom, message.step))) {
        await config.update(`historyTrim.${key}`, value, vscode.ConfigurationTarget.Global);
      }
      report.notice = `Wrote headroom ${message.headroom} and cut step ${message.step} to your user settings (opencode.historyTrim.*).`;
      this.log.info(`[report] what-if values written to user settings: headroom=${message.headroom} step=${message.step}`);
    }
    this.render(sessionId);
  }

  dispose(): void {
    for (const { panel } of this.open.values()) panel.dispose();
    this.open.clear();
  }
}
