/**
 * The API key lives in VS Code's SecretStorage, never in settings and never in a log line. The
 * OPENCODE_API_KEY environment variable is used when no key is stored. A key that cannot be a header value
 * (control character, space, non-ASCII) is refused when typed and when read, without ever being quoted.
 */
import * as vscode from 'vscode';
import { apiKeyProblem, InvalidApiKeyError } from '../core/config/apiKeyFormat';

const SECRET_KEY = 'opencode.apiKey';

export class ApiKeyStore {
  constructor(private readonly secrets: vscode.SecretStorage) {}

  /** The key to send, or undefined when none is set. Throws InvalidApiKeyError for an unusable key. */
  async get(): Promise<string | undefined> {
    const stored = (await this.secrets.get(SECRET_KEY))?.trim();
    const source = stored ? 'secret storage' : 'OPENCODE_API_KEY';
    const key = stored || process.env.OPENCODE_API_KEY?.trim() || undefined;
    const problem = key === undefined ? undefined : apiKeyProblem(key);
    if (problem) throw new InvalidApiKeyError(source, problem);
    return key;
  }

  /** Asks for a key; an empty answer removes the stored key. Returns false when the user dismissed the box. */
  async promptAndStore(): Promise<boolean> {
    const value = await vscode.window.showInputBox({
      title: 'OpenCode API Key',
      prompt: 'Paste your OpenCode API key. It is kept in VS Code\'s secret storage. Leave empty to remove the stored key.',
      password: true,
      ignoreFocusOut: true,
      validateInput: (input) => {
        const problem = input.trim() ? apiKeyProblem(input.trim()) : undefined;
        return problem ? `This key ${problem}; paste the key alone.` : undefined;
      },
    });
    if (value === undefined) return false;
    return this.store(value);
  }

  /** Stores a trimmed key (empty removes it); refuses an unusable one with a message. */
  async store(value: string): Promise<boolean> {
    const key = value.trim();
    if (!key) {
      await this.secrets.delete(SECRET_KEY);
      return true;
    }
    const problem = apiKeyProblem(key);
    if (problem) {
      void vscode.window.showErrorMessage(`OpenCode: the API key was not stored: it ${problem}. Paste the key alone, without line breaks or spaces.`);
      return false;
    }
    await this.secrets.store(SECRET_KEY, key);
    return true;
  }

  onDidChange(listener: () => void): vscode.Disposable {
    return this.secrets.onDidChange((event) => {
      if (event.key === SECRET_KEY) listener();
    });
  }
}
