/**
 * The one status bar item: hidden until the first OpenCode request (or showing "set key" when the endpoint
 * needs a key and none is set); then the last request's hit and fill, updated only from what the extension
 * observed — a request accounted, a setting changed, the quota fetched. Text and tooltip come from
 * core/report/statusText.ts. The tooltip renders no theme icons: model ids in it come from the endpoint.
 */
import * as vscode from 'vscode';
import type { QuotaService } from '../core/quota/quotaService';
import type { RequestLog, RequestRecord } from '../core/report/requestLog';
import { statusView } from '../core/report/statusText';
import type { SettingsReader } from './settingsReader';

export const STATUS_ITEM_ID = 'opencode.status';

export class OpenCodeStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem(STATUS_ITEM_ID, vscode.StatusBarAlignment.Right, 100);
  /** A request refused before it was sent (it does not fit the budget), until the next request is accounted. */
  private refusal?: { message: string; after: RequestRecord | undefined };

  constructor(
    private readonly requests: RequestLog,
    private readonly settings: SettingsReader,
    private readonly quota: QuotaService,
    private readonly needsKey: () => Promise<boolean>,
  ) {
    this.item.name = 'OpenCode';
  }

  /** Re-renders from the latest record; cheap, called on every observed change. */
  update(): void {
    const last = this.requests.latest();
    if (this.refusal && this.refusal.after === last) return this.showRefusal(this.refusal.message);
    this.refusal = undefined;
    if (!last) return void this.offerKey();
    // The conversation's dollars so far and its warming, beside the last request's (core/report/statusText.ts costRows).
    const view = statusView(last, this.requests.previous(last), this.settings.current.historyTrim, this.quota.current, this.requests.get(last.sessionId));
    this.item.text = `${view.warning ? '$(warning)' : '$(comment-discussion)'} ${view.text}`;
    const tooltip = new vscode.MarkdownString(view.tooltip);
    this.item.tooltip = tooltip;
    // A screen reader reads the label as plain text: without the backslashes that keep `$(` from rendering as an icon.
    const spoken = view.text.replace(/\\\$\(/g, '$(');
    this.item.accessibilityInformation = { label: view.warning ? `${spoken}. ${view.warning}` : spoken };
    this.item.backgroundColor = view.warning ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    this.item.command = { command: 'opencode.showReport', title: 'Show Session Report', arguments: [last.sessionId] };
    this.item.show();
  }

  /** A request that cannot fit the model's budget: the warning colour and the reason, not the last request's figures. */
  refused(message: string): void {
    this.refusal = { message, after: this.requests.latest() };
    this.update();
  }

  private showRefusal(message: string): void {
    this.item.text = '$(warning) OpenCode: request too large';
    this.item.tooltip = message;
    this.item.accessibilityInformation = { label: `OpenCode: request too large. ${message}` };
    this.item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
    this.item.command = 'opencode.showLog';
    this.item.show();
  }

  /** Before any request: a "set key" item when one is needed, else nothing. */
  private async offerKey(): Promise<void> {
    if (!(await this.needsKey())) return this.item.hide();
    if (this.requests.latest()) return;
    this.item.text = '$(key) OpenCode: set API key';
    this.item.tooltip = 'OpenCode needs an API key for this endpoint. Click to set one (kept in secret storage).';
    this.item.command = 'opencode.setApiKey';
    this.item.backgroundColor = undefined;
    this.item.show();
  }

  dispose(): void {
    this.item.dispose();
  }
}
