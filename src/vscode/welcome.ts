/**
 * Once per profile: say where to start. The empty chat view shows only Copilot's welcome, so nothing pointed
 * at @opencode, nor said that a local (for example the fake) server is in use.
 */
import * as vscode from 'vscode';
import { isLoopbackUrl } from '../core/config/endpoint';

const SHOWN_KEY = 'opencode.welcomeShown';

export function welcomeText(baseUrl: string): string {
  const where = isLoopbackUrl(baseUrl) ? `the local server at ${baseUrl} (no key needed)` : baseUrl;
  return `OpenCode is ready, using ${where}. Type @opencode in the chat view to chat with its models.`;
}

/** Shown once the endpoint is usable (loopback, or a key is set); until then the status bar offers the key. */
export async function welcomeOnce(state: vscode.Memento, baseUrl: string, usable: () => Promise<boolean>): Promise<void> {
  if (state.get(SHOWN_KEY) || !(await usable())) return;
  await state.update(SHOWN_KEY, true);
  const choice = await vscode.window.showInformationMessage(welcomeText(baseUrl), 'Open Chat', 'Get Started');
  if (choice === 'Open Chat') await vscode.commands.executeCommand('workbench.action.chat.open', { query: '@opencode ' });
  if (choice === 'Get Started') await vscode.commands.executeCommand('workbench.action.openWalkthrough', 'opencode-community.opencode-chat-provider#opencode.gettingStarted', false);
}
