/**
 * API keys live in VS Code's SecretStorage, one per endpoint, never in settings and never in a log line. The default
 * endpoint's key is `opencode.apiKey` (as before several endpoints existed); another endpoint's is
 * `opencode.apiKey@<endpoint id>`. The OPENCODE_API_KEY environment variable stands in when no key is stored, for
 * OpenCode's own endpoints over https only (envKeyAllowed): never to a URL the user added or set, never in clear text. A key that
 * cannot be a header value (control character, space, non-ASCII) is refused when typed and when read, never quoted.
 */
import * as vscode from 'vscode';
import { apiKeyProblem, InvalidApiKeyError } from '../core/request/apiKeyFormat';
import { type EndpointConfig, envKeyAllowed } from '../core/config/endpoints';

const SECRET_KEY = 'opencode.apiKey';

/** Which endpoint a key belongs to: the default one (first) or another by id. */
export interface KeyTarget {
  endpoint: EndpointConfig;
  isDefault: boolean;
}

export function secretName(target: KeyTarget): string {
  return target.isDefault ? SECRET_KEY : `${SECRET_KEY}@${target.endpoint.id}`;
}

export class ApiKeyStore {
  /**
   * Counts the changes of any endpoint's key. Counted by the first listener of the secret storage (this one, made
   * before any other), so a key cached with an older count is read again by whoever asks next: each endpoint's part
   * reads its key once per change (endpointParts.ts), not once per request.
   */
  changes = 0;

  constructor(private readonly secrets: vscode.SecretStorage) {
    secrets.onDidChange((event) => {
      if (isKeyName(event.key)) this.changes++;
    });
  }

  /** The key to send, or undefined when none is set. Throws InvalidApiKeyError for an unusable key. */
  async get(target: KeyTarget): Promise<string | undefined> {
    const stored = (await this.secrets.get(secretName(target)))?.trim();
    const envAllowed = envKeyAllowed(target.endpoint.baseUrl);
    const source = stored ? 'secret storage' : 'OPENCODE_API_KEY';
    const key = stored || (envAllowed ? process.env.OPENCODE_API_KEY?.trim() : undefined) || undefined;
    const problem = key === undefined ? undefined : apiKeyProblem(key);
    if (problem) throw new InvalidApiKeyError(source, problem);
    return key;
  }

  /** Asks for the endpoint's key; an empty answer removes it. Returns false when the user dismissed the box. */
  async promptAndStore(target: KeyTarget): Promise<boolean> {
    const value = await vscode.window.showInputBox({
      title: `API Key for ${target.endpoint.label}`,
      prompt: `Paste your API key for ${target.endpoint.label}. It is kept in VS Code's secret storage. Leave empty to remove the stored key.`,
      password: true,
      ignoreFocusOut: true,
      validateInput: (input) => {
        const problem = input.trim() ? apiKeyProblem(input.trim()) : undefined;
        return problem ? `This key ${problem}; paste the key alone.` : undefined;
      },
    });
    if (value === undefined) return false;
    return this.store(target, value);
  }

  /** Stores a trimmed key (empty removes it); refuses an unusable one with a message. */
  async store(target: KeyTarget, value: string): Promise<boolean> {
    const key = value.trim();
    if (!key) {
      await this.secrets.delete(secretName(target));
      return true;
    }
    const problem = apiKeyProblem(key);
    if (problem) {
      void vscode.window.showErrorMessage(`OpenCode: the API key was not stored: it ${problem}. Paste the key alone, without line breaks or spaces.`);
      return false;
    }
    await this.secrets.store(secretName(target), key);
    return true;
  }

  /** Any endpoint's key changed. */
  onDidChange(listener: () => void): vscode.Disposable {
    return this.secrets.onDidChange((event) => {
      if (isKeyName(event.key)) listener();
    });
  }
}

function isKeyName(name: string): boolean {
  return name === SECRET_KEY || name.startsWith(`${SECRET_KEY}@`);
}
