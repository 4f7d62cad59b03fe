/**
 * The inline suggestions' status-bar toggle and its command: shows whether suggestions are on and with which
 * model; clicking flips `opencode.inlineSuggestions.enabled` (asking for a model the first time).
 */
import * as vscode from 'vscode';
import { pickModelFor, type PickableModels } from './modelPick';
import type { SettingsReader } from './settingsReader';

export const INLINE_TOGGLE_COMMAND = 'opencode.toggleInlineSuggestions';
export const INLINE_STATUS_ID = 'opencode.inlineStatus';

export class InlineStatus implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem(INLINE_STATUS_ID, vscode.StatusBarAlignment.Right, 99);
  private readonly disposables: vscode.Disposable[];

  constructor(private readonly settings: SettingsReader, private readonly models: PickableModels) {
    this.item.name = 'OpenCode inline suggestions';
    this.item.command = INLINE_TOGGLE_COMMAND;
    this.disposables = [vscode.commands.registerCommand(INLINE_TOGGLE_COMMAND, () => this.toggle()), settings.onDidChange(() => this.update())];
    this.update();
  }

  update(): void {
    const inline = this.settings.current.editor?.inlineSuggestions;
    const on = !!inline?.enabled && !!inline.model;
    this.item.text = on ? '$(sparkle) OpenCode' : '$(circle-slash) OpenCode';
    this.item.tooltip = on ? `Inline suggestions on (${inline?.model}). Click to turn them off.` : 'Inline suggestions off. Click to turn them on.';
    this.item.accessibilityInformation = { label: on ? `OpenCode inline suggestions on, model ${inline?.model}` : 'OpenCode inline suggestions off' };
    this.item.show();
  }

  async toggle(): Promise<void> {
    const inline = this.settings.current.editor?.inlineSuggestions;
    const config = vscode.workspace.getConfiguration('opencode');
    if (inline?.enabled && inline.model) return void (await config.update('inlineSuggestions.enabled', false, vscode.ConfigurationTarget.Global));
    if (!inline?.model && !(await pickModelFor(this.models, 'inlineSuggestions.model', 'inline suggestions'))) return;
    await config.update('inlineSuggestions.enabled', true, vscode.ConfigurationTarget.Global);
  }

  dispose(): void {
    this.item.dispose();
    for (const d of this.disposables) d.dispose();
  }
}
