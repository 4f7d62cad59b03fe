/**
 * The API key lives in VS Code's SecretStorage, never in settings and never in a log line. The
 * OPENCODE_API_KEY environment variable is used when no key is stored.
 */
import * as vscode from 'vscode';

const SECRET_KEY = 'opencode.apiKey';

export class ApiKeyStore {
  constructor(private readonly secrets: vscode.SecretStorage) {}

  async get(): Promise<string | undefined> {
    const stored = await this.secrets.get(SECRET_KEY);
    const key = stored || process.env.OPENCODE_API_KEY || undefined;
    return key?.trim() || undefined;
  }

  /** Asks for a key; an empty answer removes the stored key. Returns false when the user dismissed the box. */
  async promptAndStore(): Promise<boolean> {
    const value = await vscode.window.showInputBox({
      title: 'OpenCode API Key',
      prompt: 'Paste your OpenCode API key. It is kept in VS Code\'s secret storage. Leave empty to remove the stored key.',
      password: true,
      ignoreFocusOut: true,
    });
    if (value === undefined) return false;
    if (value.trim()) await this.secrets.store(SECRET_KEY, value.trim());
    else await this.secrets.delete(SECRET_KEY);
    return true;
  }

  onDidChange(listener: () => void): vscode.Disposable {
    return this.secrets.onDidChange((event) => {
      if (event.key === SECRET_KEY) listener();
    });
  }
}
