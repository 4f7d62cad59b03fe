/**
 * Once per profile: say where to start. The empty chat view shows only Copilot's welcome, so nothing pointed
 * at @opencode, nor said that a local (for example the fake) server is in use. And the walkthrough's steps: each
 * is ticked by a context key this file sets when the step is done (package.json `completionEvents: onContext:`).
 */
import * as vscode from 'vscode';
import { isLoopbackUrl } from '../core/config/endpoints';

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
  if (choice === 'Open Chat') await openChat();
  if (choice === 'Get Started') await vscode.commands.executeCommand('workbench.action.openWalkthrough', 'opencode-community.opencode-chat-provider#opencode.gettingStarted', false);
}

/**
 * The chat view with `@opencode ` typed. The walkthrough links this command, not workbench.action.chat.open: the
 * walkthrough shows a linked command's shortcut as a tip, and that one's (Ctrl+Alt+I) toggles the chat closed.
 */
export function openChat(): Thenable<unknown> {
  return vscode.commands.executeCommand('workbench.action.chat.open', { query: '@opencode ' });
}

/** The context keys that tick the walkthrough's steps (package.json). */
export const WALKTHROUGH_STEPS = {
  /** A key is stored or opencode.baseUrl is set: the endpoint is chosen. */
  endpoint: 'opencode.walkthrough.endpointChosen',
  /** An OpenCode model answered (through @opencode, VS Code's agent or any other caller). */
  model: 'opencode.walkthrough.modelUsed',
  /** @opencode answered. */
  chat: 'opencode.walkthrough.participantAnswered',
} as const;

/** Sets each step's key once per window (VS Code keeps a ticked step ticked). */
export class WalkthroughSteps {
  private readonly done = new Set<string>();

  mark(step: keyof typeof WALKTHROUGH_STEPS): void {
    const key = WALKTHROUGH_STEPS[step];
    if (this.done.has(key)) return;
    this.done.add(key);
    void Promise.resolve(vscode.commands.executeCommand('setContext', key, true)).catch(() => this.done.delete(key));
  }
}

/** Whether the user chose an endpoint: a stored key, or an explicit opencode.baseUrl (not the preset's). */
export function endpointChosen(hasKey: boolean): boolean {
  const configured = vscode.workspace.getConfiguration('opencode').get<string>('baseUrl');
  return hasKey || (typeof configured === 'string' && configured.trim() !== '');
}
