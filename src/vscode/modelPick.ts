/**
 * Asks which OpenCode model a feature (inline suggestions, commit messages) should use, from the models the
 * endpoints list, and keeps the answer in the feature's setting (user settings).
 */
import * as vscode from 'vscode';
import type { ModelEntry } from '../core/types';

/** What lists the models to pick from. */
export interface PickableModels {
  models(): Promise<ModelEntry[]>;
}

export async function pickModelFor(list: PickableModels, settingKey: string, purpose: string): Promise<string | undefined> {
  const models = await list.models().catch(() => []);
  if (models.length === 0) {
    void vscode.window.showErrorMessage(`OpenCode lists no models yet (is the API key set?), so no model can write ${purpose}.`);
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(models.map((m) => ({ label: m.id, description: m.name !== m.id ? m.name : undefined })), { title: `OpenCode model for ${purpose}` });
  if (!picked) return undefined;
  await vscode.workspace.getConfiguration('opencode').update(settingKey, picked.label, vscode.ConfigurationTarget.Global);
  return picked.label;
}
