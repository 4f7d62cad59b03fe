/**
 * The inline (ghost-text) suggestion provider: VS Code's document and cursor in, the core's prompt
 * (core/inline/inlinePrompt.ts) through the extension's own engine, one suggestion out. Off unless
 * `opencode.inlineSuggestions.enabled` and a model are set; never blocks the editor: per keystroke only a
 * timer is set; after the quiet time the prompt is built from the lines its budgets keep (lineAt, never the
 * whole text), and VS Code's cancellation stops the request.
 */
import * as vscode from 'vscode';
import { buildInlinePrompt, type InlineDocument } from '../core/inline/inlinePrompt';
import type { InlineLines } from '../core/inline/inlineWindow';
import { inlineLogLine } from '../core/inline/inlineLog';
import { offersInline } from '../core/inline/inlineWhere';
import { requestSuggestion, type InlineEngine } from '../core/inline/inlineRequest';
import { InlineScheduler, REAL_TIMERS, type Timers } from '../core/inline/inlineScheduler';
import type { SettingsReader } from './settingsReader';
import { type ListedFields } from '../core/models/modelFacts';

const MAX_NEIGHBOURS = 4;

export interface InlineDeps {
  engine: InlineEngine;
  settings: SettingsReader;
  log: vscode.LogOutputChannel;
  /** What the model's endpoint lists of it (the engine resolves it through the model table). */
  listedOf: (modelId: string) => ListedFields;
  timers?: Timers;
}

export class OpenCodeInlineProvider implements vscode.InlineCompletionItemProvider {
  private readonly scheduler: InlineScheduler;

  constructor(private readonly deps: InlineDeps) {
    this.scheduler = new InlineScheduler(deps.timers ?? REAL_TIMERS);
  }

  async provideInlineCompletionItems(document: vscode.TextDocument, position: vscode.Position, _context: vscode.InlineCompletionContext, token: vscode.CancellationToken): Promise<vscode.InlineCompletionItem[] | undefined> {
    const settings = this.deps.settings.current.editor?.inlineSuggestions;
    if (!settings?.enabled || !settings.model) return undefined;
    // The chat input, the commit box, outputs and the settings editor are documents too: never there.
    if (!offersInline(document.uri.scheme, document.languageId, settings.languages)) return undefined;
    const version = document.version;
    const controller = new AbortController();
    const subscription = token.onCancellationRequested(() => controller.abort());
    if (token.isCancellationRequested) controller.abort();
    try {
      const listed = this.deps.listedOf(settings.model);
      const result = await this.scheduler.schedule((signal) => {
        const prompt = buildInlinePrompt({ document: inlineDocument(document), cursor: position, neighbours: neighbours(document) });
        return requestSuggestion(this.deps.engine, settings.model, listed, prompt, settings.maxTokens, signal);
      }, {
        debounceMs: settings.debounceMs,
        maxLatencyMs: settings.maxLatencyMs,
        signal: controller.signal,
        current: () => document.version === version,
      });
      const line = inlineLogLine(settings.model, result);
      if (line && result.kind === 'failed') this.deps.log.warn(line);
      else if (line) this.deps.log.info(line);
      if (result.kind !== 'done' || !result.value.text) return undefined;
      const at = new vscode.Range(position.line, position.character, position.line, position.character);
      return [new vscode.InlineCompletionItem(result.value.text, at)];
    } finally {
      subscription.dispose();
    }
  }
}

function inlineDocument(document: vscode.TextDocument): InlineDocument {
  return { path: vscode.workspace.asRelativePath(document.uri, false), languageId: document.languageId, lines: linesOf(document) };
}

/** The document as lines: lineAt returns the line VS Code already holds (no copy, whatever its length). */
function linesOf(document: vscode.TextDocument): InlineLines {
  return { lineCount: document.lineCount, line: (i) => document.lineAt(i).text };
}

/** Other files open in visible editors (nearby in the user's attention); the prompt reads only their first lines. */
function neighbours(self: vscode.TextDocument): InlineDocument[] {
  const seen = new Set<string>([self.uri.toString()]);
  const out: InlineDocument[] = [];
  for (const editor of vscode.window.visibleTextEditors ?? []) {
    const doc = editor.document;
    if (seen.has(doc.uri.toString())) continue;
    seen.add(doc.uri.toString());
    out.push(inlineDocument(doc));
    if (out.length >= MAX_NEIGHBOURS) break;
  }
  return out;
}
