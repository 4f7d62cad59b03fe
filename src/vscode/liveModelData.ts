/**
 * Schedules the live model data (core/models/liveModelData.ts): the stored copy applied at start, a check a little
 * after start and every few hours (the core fetches at most once a day), none while opencode.liveModelData is off.
 * Never on a request's path. OPENCODE_MODEL_DATA_URL points it elsewhere (the tests' loopback stand-in).
 */
import type * as vscode from 'vscode';
import { DEFAULT_LIVE_OPTIONS, LiveModelData } from '../core/models/liveModelData';
import { MODEL_TABLE } from '../core/models/modelTable';
import type { SettingsReader } from './settingsReader';
import { userAgent } from '../core/request/chatTransport';

const FIRST_CHECK_MS = 15_000;
const CHECK_EVERY_MS = 6 * 60 * 60 * 1000;

export function startLiveModelData(state: vscode.Memento, log: vscode.LogOutputChannel, settings: SettingsReader, changed: () => void): vscode.Disposable {
  const live = new LiveModelData(state, MODEL_TABLE, log, { ...DEFAULT_LIVE_OPTIONS, url: process.env.OPENCODE_MODEL_DATA_URL || DEFAULT_LIVE_OPTIONS.url, userAgent: userAgent() });
  let enabled = settings.current.liveModelData !== false;
  const check = (): void => {
    if (enabled) void live.refreshIfDue().then((result) => result === 'updated' && changed());
  };
  if (enabled) live.load();
  const first = setTimeout(check, FIRST_CHECK_MS);
  const every = setInterval(check, CHECK_EVERY_MS);
  first.unref?.();
  every.unref?.();
  const subscription = settings.onDidChange((now) => {
    const on = now.liveModelData !== false;
    if (on === enabled) return;
    enabled = on;
    if (on) {
      live.load();
      check();
    } else live.disable();
    changed();
  });
  return { dispose: () => (clearTimeout(first), clearInterval(every), subscription.dispose()) };
}
