/** Activation wires the parts together (src/vscode/composeExtension.ts) and does nothing else. */
import type * as vscode from 'vscode';
import { composeExtension } from './vscode/composeExtension';
import { redactUrl } from './core/util/redact';

export function activate(context: vscode.ExtensionContext): void {
  const { log, settings } = composeExtension(context);
  log.info(`[activate] OpenCode chat provider ${context.extension.packageJSON.version} — endpoint ${redactUrl(settings.current.baseUrl)}`);
}

export function deactivate(): void {}
