/**
 * "OpenCode: Add Endpoint": OpenCode Go or Zen (those not enabled yet) or any OpenAI-compatible URL, appended to
 * `opencode.endpoints` (user settings), then its key asked for unless it is a loopback server (docs/endpoints.md).
 */
import * as vscode from 'vscode';
import { BUILT_IN_ENDPOINTS, idProblem, suggestedId, isLoopbackUrl } from '../core/config/endpoints';
import { parsedHttpUrl, urlProblem } from '../core/config/endpointUrl';
import type { EndpointRegistry } from './endpointParts';

const CUSTOM = 'Another OpenAI-compatible endpoint…';

export async function addEndpoint(endpoints: EndpointRegistry): Promise<void> {
  const enabled = endpoints.all().map((part) => part.config());
  const builtIns = Object.values(BUILT_IN_ENDPOINTS).filter((b) => !enabled.some((e) => e.id === b.id || e.baseUrl === b.baseUrl));
  const picked = await vscode.window.showQuickPick([...builtIns.map((b) => ({ label: b.label, description: b.baseUrl, id: b.id })), { label: CUSTOM, description: 'Ollama, vLLM, OpenRouter, a company gateway…', id: '' }], {
    title: 'OpenCode: add which endpoint to the model picker?',
  });
  if (!picked) return;
  const item = picked.id ? picked.id : await customItem(enabled.map((e) => e.id), enabled.map((e) => e.baseUrl));
  if (!item) return;
  const config = vscode.workspace.getConfiguration('opencode');
  const current = config.inspect<unknown[]>('endpoints')?.globalValue;
  await config.update('endpoints', [...(Array.isArray(current) ? current : []), item], vscode.ConfigurationTarget.Global);
  const id = typeof item === 'string' ? item : item.id;
  const baseUrl = typeof item === 'string' ? BUILT_IN_ENDPOINTS[item as keyof typeof BUILT_IN_ENDPOINTS].baseUrl : item.baseUrl;
  if (!isLoopbackUrl(baseUrl)) await vscode.commands.executeCommand('opencode.setApiKey', id);
}

async function customItem(takenIds: readonly string[], takenUrls: readonly string[]): Promise<{ id: string; baseUrl: string } | undefined> {
  const typed = await vscode.window.showInputBox({
    title: 'OpenCode: the endpoint\'s base URL',
    prompt: 'An OpenAI-compatible base URL, e.g. http://127.0.0.1:11434/v1. The key is asked for next, never put in the URL.',
    ignoreFocusOut: true,
    validateInput: (input) => {
      const problem = urlProblem(input);
      if (problem) return `This ${problem.replace(/^.*? (is not|contains)/, '$1')}.`;
      return takenUrls.includes(parsedHttpUrl(input) as string) ? 'That endpoint is already listed.' : undefined;
    },
  });
  const baseUrl = typed === undefined ? undefined : parsedHttpUrl(typed);
  if (!baseUrl || takenUrls.includes(baseUrl)) return undefined;
  const id = await vscode.window.showInputBox({
    title: 'OpenCode: a short id for it',
    prompt: 'Its models are listed as <id>/<model>; its key is kept under this id.',
    value: suggestedId(baseUrl, takenIds),
    ignoreFocusOut: true,
    validateInput: (input) => idProblem(input.trim(), takenIds),
  });
  if (id === undefined || idProblem(id.trim(), takenIds)) return undefined;
  return { id: id.trim(), baseUrl };
}
