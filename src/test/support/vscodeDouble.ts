/**
 * The one shared stand-in for the `vscode` module under plain mocha (registered by
 * registerVscodeDouble). It implements just what the adapter touches, with real behaviour: events fire,
 * configuration reads a settable map, the log channel records lines, secrets and globalState store values.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import * as nodeFs from 'fs';
import { CancellationTokenSource, Disposable, EventEmitter, FileType, LanguageModelTextPart, Position, Range, Uri } from './vscodeTypes';

export * from './vscodeTypes';
/** VS Code's version as the extension reads it (vscode.version). */
export const version = '1.139.0-double';

/** Present or absent at run time in real VS Code; tests delete and restore it to try both (so it is an own, deletable export here, not a re-export). */
export class LanguageModelThinkingPart {
  constructor(public value: string | string[]) {}
}

/** A LogOutputChannel that keeps its lines for assertions. */
export class RecordingLogChannel {
  readonly lines: { level: string; message: string }[] = [];
  constructor(readonly name: string) {}
  private add(level: string, message: string): void {
    this.lines.push({ level, message });
  }
  trace(message: string): void { this.add('trace', message); }
  debug(message: string): void { this.add('debug', message); }
  info(message: string): void { this.add('info', message); }
  warn(message: string): void { this.add('warn', message); }
  error(message: string | Error): void { this.add('error', String(message)); }
  append(): void {}
  appendLine(message: string): void { this.add('info', message); }
  show(): void {}
  clear(): void { this.lines.length = 0; }
  dispose(): void {}
  text(): string {
    return this.lines.map((l) => `[${l.level}] ${l.message}`).join('\n');
  }
}

export const createdChannels: RecordingLogChannel[] = [];
const configChanged = new EventEmitter<{ affectsConfiguration(section: string): boolean }>();
/** Settings under `opencode.`, keyed without the prefix (e.g. 'historyTrim.cutStepTokens'). */
export const settingsStore = new Map<string, unknown>();

export function setSetting(key: string, value: unknown): void {
  if (value === undefined) settingsStore.delete(key);
  else settingsStore.set(key, value);
  configChanged.fire({ affectsConfiguration: (section: string) => section === 'opencode' || `opencode.${key}`.startsWith(section) });
}

/** A text document read from disk: getText of a range cuts by line and character, as VS Code does. */
function textDocument(uri: Uri, text: string): any {
  const lines = text.split(/\r?\n/);
  const offset = (p: Position): number => {
    const line = Math.min(p.line, lines.length - 1);
    const before = lines.slice(0, line).reduce((n, l) => n + l.length + 1, 0);
    return before + Math.min(p.character, lines[line].length);
  };
  const joined = lines.join('\n');
  return { uri, languageId: 'plaintext', version: 1, lineCount: lines.length, offsetAt: offset, lineAt: (line: number) => ({ text: lines[line] }), getText: (range?: Range) => (range ? joined.slice(offset(range.start), offset(range.end)) : joined) };
}

/** An open editor holding `text` (unsaved: the disk is not touched); returns a function that closes it. */
/** A document as the inline provider sees it (not opened in a visible editor). */
export function documentOf(uri: Uri, text: string, languageId = 'plaintext'): any {
  return { ...textDocument(uri, text), languageId };
}

export function openEditor(uri: Uri, text: string): () => void {
  const doc = textDocument(uri, text);
  workspace.textDocuments.push(doc);
  return () => workspace.textDocuments.splice(workspace.textDocuments.indexOf(doc), 1);
}

export const workspace = {
  /** workspace.fs over the real disk (file URIs only); errors are the node errors, as a FileSystemError carries them. */
  fs: {
    async stat(uri: Uri) {
      const st = await nodeFs.promises.stat(uri.fsPath);
      return { type: st.isDirectory() ? FileType.Directory : FileType.File, size: st.size, ctime: st.ctimeMs, mtime: st.mtimeMs };
    },
    async readFile(uri: Uri): Promise<Uint8Array> {
      return new Uint8Array(await nodeFs.promises.readFile(uri.fsPath));
    },
    async readDirectory(uri: Uri): Promise<[string, FileType][]> {
      const entries = await nodeFs.promises.readdir(uri.fsPath, { withFileTypes: true });
      return entries.map((e) => [e.name, e.isDirectory() ? FileType.Directory : FileType.File]);
    },
  },
  /** The open folders; a test sets them (none by default). */
  workspaceFolders: undefined as { uri: Uri; name: string; index: number }[] | undefined,
  /** As VS Code: the path inside the workspace folder that holds the file, else the whole path. */
  asRelativePath(target: Uri | string): string {
    const full = typeof target === 'string' ? target : target.path;
    const folder = workspace.workspaceFolders?.find((f) => full.startsWith(`${f.uri.path}/`));
    return folder ? full.slice(folder.uri.path.length + 1) : full;
  },
  /** Open editors; a test opens one with `openEditor` (its text may differ from the disk, as when unsaved). */
  textDocuments: [] as any[],
  async openTextDocument(uri: Uri): Promise<any> {
    const open = workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    return open ?? textDocument(uri, await nodeFs.promises.readFile(uri.fsPath, 'utf8'));
  },
  getConfiguration(section?: string) {
    return {
      get: (key: string, fallback?: unknown) => (section === 'opencode' && settingsStore.has(key) ? settingsStore.get(key) : fallback),
      /** The store holds user (global) settings only. */
      inspect: (key: string) => ({ key: `${section}.${key}`, globalValue: section === 'opencode' ? settingsStore.get(key) : undefined }),
      update: async (key: string, value: unknown) => {
        if (section === 'opencode') setSetting(key, value);
      },
    };
  },
  onDidChangeConfiguration: configChanged.event,
};

/** Inline completion providers the extension registered (tests call them as the editor would). */
export const inlineProviders: any[] = [];
/** The document selector each inline provider was registered for (parallel to inlineProviders). */
export const inlineSelectors: unknown[] = [];
export const languages = {
  registerInlineCompletionItemProvider(selector: unknown, provider: any): Disposable {
    inlineProviders.push(provider);
    inlineSelectors.length = inlineProviders.length - 1;
    inlineSelectors.push(selector);
    return new Disposable(() => inlineProviders.splice(inlineProviders.indexOf(provider), 1));
  },
};

export class InlineCompletionItem {
  constructor(readonly insertText: string, readonly range?: Range) {}
}

/** Extensions by id (`vscode.git` for the commit-message tests); none unless a test adds one. */
export const installedExtensions = new Map<string, any>();
export const extensions = {
  getExtension: (id: string): any => installedExtensions.get(id),
};

export const ProgressLocation = { SourceControl: 1, Window: 10, Notification: 15 } as const;

/** Resolves once the panel's page satisfies `ready` (now, or when the extension next sets it): no polling, no clock. */
export function whenHtml(panel: { webview: { html: string; onDidSetHtml(listener: (html: string) => void): { dispose(): void } } }, ready: (html: string) => boolean): Promise<void> {
  if (ready(panel.webview.html)) return Promise.resolve();
  return new Promise((resolve) => {
    const subscription = panel.webview.onDidSetHtml((html) => {
      if (!ready(html)) return;
      subscription.dispose();
      resolve();
    });
  });
}

/** The status bar items the extension created, as plain records (tests read their text). */
export const createdStatusItems: any[] = [];
export const createdPanels: any[] = [];
export const StatusBarAlignment = { Left: 1, Right: 2 } as const;
export const ViewColumn = { Active: -1, Beside: -2, One: 1 } as const;
export const ConfigurationTarget = { Global: 1, Workspace: 2, WorkspaceFolder: 3 } as const;

export const window = {
  createStatusBarItem(id: string, alignment?: number, priority?: number): any {
    const item = { id, alignment, priority, text: '', tooltip: undefined as unknown, visible: false, show() { item.visible = true; }, hide() { item.visible = false; }, dispose() {} };
    createdStatusItems.push(item);
    return item;
  },
  /** A panel whose page can be read (`webview.html`) and spoken to (`send`), as the page's script would. */
  createWebviewPanel(viewType: string, title: string): any {
    const received = new EventEmitter<unknown>();
    const disposed = new EventEmitter<void>();
    const htmlSet = new EventEmitter<string>();
    let html = '';
    const webview = {
      get html() { return html; },
      set html(value: string) { html = value; htmlSet.fire(value); },
      onDidReceiveMessage: received.event,
      /** Test-only: fires each time the extension sets the page (whenHtml waits on it). */
      onDidSetHtml: htmlSet.event,
    };
    const panel = {
      viewType, title, webview, onDidDispose: disposed.event,
      reveal() {}, dispose: () => disposed.fire(), send: (message: unknown) => received.fire(message),
    };
    createdPanels.push(panel);
    return panel;
  },
  createOutputChannel(name: string): RecordingLogChannel {
    const channel = new RecordingLogChannel(name);
    createdChannels.push(channel);
    return channel;
  },
  showInputBox: async (): Promise<string | undefined> => undefined,
  visibleTextEditors: [] as any[],
  /** Runs the task with a token a test can cancel (`progressCancel`). */
  withProgress: async (_options: unknown, task: (progress: unknown, token: any) => Promise<unknown>): Promise<unknown> => {
    const source = new CancellationTokenSource();
    progressCancel.current = () => source.cancel();
    return task({ report() {} }, source.token);
  },
  showInformationMessage: async (message: unknown, ..._args: unknown[]): Promise<string | undefined> => void shownMessages.push({ level: 'info', message: String(message) }),
  showErrorMessage: async (message: unknown, ..._args: unknown[]): Promise<string | undefined> => void shownMessages.push({ level: 'error', message: String(message) }),
  /** Answers with what `quickPick.choose` picks from the items (nothing when unset); the items are kept. */
  showQuickPick: async (items: any[] | Thenable<any[]>, options?: any): Promise<any> => {
    const list = await items;
    quickPick.offered = list;
    lastQuickPickOptions = options;
    return quickPick.choose?.(list);
  },
};

/** Cancels the task of the last withProgress, as its notification's Cancel button would. */
export const progressCancel: { current?: () => void } = {};

/** Messages shown through showInformationMessage / showErrorMessage (unless a test replaced them). */
export const shownMessages: { level: string; message: string }[] = [];
/** What the next quick pick answers, and the items it last offered. */
export const quickPick: { choose?: (items: any[]) => any; offered: any[] } = { offered: [] };
/** The options of the last showQuickPick. */
export let lastQuickPickOptions: any;

export const registeredProviders = new Map<string, any>();
export const lm = {
  registerLanguageModelChatProvider(vendor: string, provider: any): Disposable {
    registeredProviders.set(vendor, provider);
    return new Disposable(() => registeredProviders.delete(vendor));
  },
  /** Model handles as `vscode.lm` returns them: info plus sendRequest through the registered provider. */
  async selectChatModels(selector: { vendor?: string } = {}): Promise<any[]> {
    const found: any[] = [];
    for (const [vendor, provider] of registeredProviders) {
      if (selector.vendor && selector.vendor !== vendor) continue;
      const infos = (await provider.provideLanguageModelChatInformation({ silent: true }, new CancellationTokenSource().token)) ?? [];
      for (const info of infos) found.push({ ...info, vendor, sendRequest: (messages: any[], options: any, token: any) => sendThrough(provider, info, messages, options, token) });
    }
    return found;
  },
};

async function sendThrough(provider: any, info: any, messages: any[], options: any = {}, token: any = new CancellationTokenSource().token): Promise<any> {
  const texts: string[] = [];
  // As in VS Code: an error after some parts reaches the caller after those parts, from the stream itself.
  let failed: { error: unknown } | undefined;
  try {
    await provider.provideLanguageModelChatResponse(info, messages, { toolMode: 1, ...options }, { report: (part: any) => part instanceof LanguageModelTextPart && texts.push(part.value) }, token);
  } catch (error) {
    if (texts.length === 0) throw error;
    failed = { error };
  }
  return {
    text: (async function* () {
      yield* texts;
      if (failed) throw failed.error;
    })(),
  };
}

export const registeredParticipants = new Map<string, { handler: (...args: any[]) => any; iconPath?: unknown }>();
export const chat = {
  createChatParticipant(id: string, handler: (...args: any[]) => any) {
    const participant = { handler, iconPath: undefined as unknown, dispose: () => registeredParticipants.delete(id) };
    registeredParticipants.set(id, participant);
    return participant;
  },
};

export const registeredCommands = new Map<string, (...args: any[]) => any>();
/** Context keys set through the built-in `setContext` command. */
export const contextKeys = new Map<string, unknown>();
export const commands = {
  registerCommand(id: string, handler: (...args: any[]) => any): Disposable {
    registeredCommands.set(id, handler);
    return new Disposable(() => registeredCommands.delete(id));
  },
  async executeCommand(id: string, ...args: any[]): Promise<any> {
    if (id === 'setContext') return void contextKeys.set(args[0], args[1]);
    const handler = registeredCommands.get(id);
    if (!handler) throw new Error(`command '${id}' not found`);
    return handler(...args);
  },
};

/** globalState: a Map behind the Memento interface. */
export class MemoryMemento {
  readonly values = new Map<string, unknown>();
  get<T>(key: string, fallback?: T): T | undefined {
    return this.values.has(key) ? (this.values.get(key) as T) : fallback;
  }
  /** As VS Code's: undefined removes the key. */
  async update(key: string, value: unknown): Promise<void> {
    if (value === undefined) this.values.delete(key);
    else this.values.set(key, JSON.parse(JSON.stringify(value)));
  }
  keys(): string[] {
    return [...this.values.keys()];
  }
  setKeysForSync(): void {}
}

export class MemorySecrets {
  private readonly values = new Map<string, string>();
  private readonly changed = new EventEmitter<{ key: string }>();
  readonly onDidChange = this.changed.event;
  async get(key: string): Promise<string | undefined> {
    return this.values.get(key);
  }
  async store(key: string, value: string): Promise<void> {
    this.values.set(key, value);
    this.changed.fire({ key });
  }
  async delete(key: string): Promise<void> {
    this.values.delete(key);
    this.changed.fire({ key });
  }
}

/** An ExtensionContext with real in-memory storage; `logDir` is where the request recorder writes. */
export function createExtensionContext(logDir: string, globalState = new MemoryMemento()): any {
  return {
    subscriptions: [] as Disposable[],
    globalState,
    secrets: new MemorySecrets(),
    logUri: { fsPath: logDir },
    extension: { packageJSON: { version: 'test' } },
  };
}
