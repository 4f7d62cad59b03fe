/** Reads `opencode.*` through the core's clamping resolver and re-reads it when the user changes it. */
import * as vscode from 'vscode';
import { resolveSettings, type Settings } from '../core/config/settings';
import { isInsecureRemoteUrl } from '../core/config/endpoint';
import { redactUrl } from '../core/util/redact';
import { settingsChangeLine } from '../core/config/settingsDiff';

export class SettingsReader implements vscode.Disposable {
  private value: Settings;
  private readonly listener: vscode.Disposable;
  private readonly changed = new vscode.EventEmitter<Settings>();
  readonly onDidChange = this.changed.event;

  constructor(private readonly log: vscode.LogOutputChannel) {
    this.value = this.read();
    this.listener = vscode.workspace.onDidChangeConfiguration((event) => {
      if (!event.affectsConfiguration('opencode')) return;
      const before = this.value;
      this.value = this.read();
      const line = settingsChangeLine(before, this.value);
      if (line) this.log.info(line);
      this.changed.fire(this.value);
    });
  }

  get current(): Settings {
    return this.value;
  }

  private read(): Settings {
    const config = vscode.workspace.getConfiguration('opencode');
    const settings = resolveSettings((key) => config.get(key), (message) => this.log.warn(`[settings] ${message}`));
    if (isInsecureRemoteUrl(settings.baseUrl)) {
      this.log.warn(`[settings] opencode.baseUrl ${redactUrl(settings.baseUrl)} is plain HTTP to a remote host: your API key and conversation travel unencrypted. Use https://.`);
    }
    return settings;
  }

  dispose(): void {
    this.listener.dispose();
    this.changed.dispose();
  }
}
