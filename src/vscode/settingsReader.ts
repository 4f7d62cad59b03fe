/** Reads `opencode.*` through the core's clamping resolver and re-reads it when the user changes it. */
import * as vscode from 'vscode';
import { resolveSettings, type Settings } from '../core/config/settings';
import { enabledEndpoints, plainHttpWarning } from '../core/config/endpoints';
import { OnceKeys } from '../core/util/onceKeys';
import { settingsChangeLine } from '../core/config/settingsDiff';

export class SettingsReader implements vscode.Disposable {
  /**
   * The settings now: an immutable snapshot, replaced (never changed) when the user changes a setting. A field, not a
   * getter: every hook of every request reads it, and reading a field runs no code of this file.
   */
  current: Settings;
  private readonly listener: vscode.Disposable;
  private readonly changed = new vscode.EventEmitter<Settings>();
  readonly onDidChange = this.changed.event;
  /** Writes under way (write): their change events wait, so several values are one change. */
  private writing = 0;
  private readonly warned = new OnceKeys(64);

  constructor(private readonly log: vscode.LogOutputChannel) {
    this.current = this.read();
    this.listener = vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration('opencode') && this.writing === 0) this.reread();
    });
  }

  /**
   * Writes several `opencode.*` values as one change: one re-read, one `[settings]` line, one onDidChange
   * (VS Code raises a change event per key written).
   */
  async write(values: Record<string, unknown>, target: vscode.ConfigurationTarget): Promise<void> {
    this.writing++;
    try {
      const config = vscode.workspace.getConfiguration('opencode');
      for (const [key, value] of Object.entries(values)) await config.update(key, value, target);
    } finally {
      this.writing--;
    }
    if (this.writing === 0) this.reread();
  }

  /** Reads the settings again; logs and announces only what changed (a late event after a write finds nothing). */
  private reread(): void {
    const before = this.current;
    this.current = this.read();
    const line = settingsChangeLine(before, this.current);
    if (!line && JSON.stringify(before) === JSON.stringify(this.current)) return;
    if (line) this.log.info(line);
    this.changed.fire(this.current);
  }

  private read(): Settings {
    const config = vscode.workspace.getConfiguration('opencode');
    const settings = resolveSettings((key) => config.get(key), (message) => this.log.warn(`[settings] ${message}`));
    this.warnPlainHttp(settings);
    return settings;
  }

  /** Every plain-http endpoint (the default one and each of opencode.endpoints) warns once per activation. */
  private warnPlainHttp(settings: Settings): void {
    enabledEndpoints(settings).forEach((endpoint, index) => {
      const where = index === 0 ? 'opencode.baseUrl' : `opencode.endpoints "${endpoint.id}"`;
      const warning = plainHttpWarning(where, endpoint.baseUrl);
      if (warning && this.warned.first(`${where}\u0000${endpoint.baseUrl}`)) this.log.warn(`[settings] ${warning}`);
    });
  }

  dispose(): void {
    this.listener.dispose();
    this.changed.dispose();
  }
}
