/**
 * "Generate Commit Message" (the ✨ button in the Source Control title): the staged diff and the recent
 * subjects from VS Code's git extension, the prompt from core/commit, the answer streamed into the
 * repository's commit input box through the extension's own engine. Cancellable from the progress
 * notification; running it again while one is writing stops the first.
 */
import * as vscode from 'vscode';
import { buildCommitPrompt, cleanCommitMessage, summarizedNote, RECENT_SUBJECTS } from '../core/commit/commitPrompt';
import type { InlineEngine } from '../core/inline/inlineRequest';
import { pickModelFor, type PickableModels } from './modelPick';
import type { SettingsReader } from './settingsReader';
import { outsideText } from '../core/util/excerpt';
import { type ListedFields } from '../core/models/modelFacts';

export const COMMIT_COMMAND = 'opencode.generateCommitMessage';

/** The part of the git extension's API (vscode.git, getAPI(1)) used here. */
interface GitRepository {
  rootUri: vscode.Uri;
  inputBox: { value: string };
  state: { indexChanges: readonly unknown[] };
  diff(cached?: boolean): Promise<string>;
  log(options?: { maxEntries?: number }): Promise<{ message: string }[]>;
}
interface GitApi {
  repositories: GitRepository[];
}

export interface CommitDeps {
  engine: InlineEngine;
  settings: SettingsReader;
  models: PickableModels;
  log: vscode.LogOutputChannel;
  /** What the model's endpoint lists of it (the engine resolves it through the model table). */
  listedOf: (modelId: string) => ListedFields;
}

export function registerCommitMessage(deps: CommitDeps): vscode.Disposable {
  let running: AbortController | undefined;
  return vscode.commands.registerCommand(COMMIT_COMMAND, async (arg?: unknown) => {
    running?.abort();
    const controller = new AbortController();
    running = controller;
    try {
      await generate(deps, arg, controller);
    } finally {
      if (running === controller) running = undefined;
    }
  });
}

async function generate(deps: CommitDeps, arg: unknown, controller: AbortController): Promise<void> {
  const repository = await repositoryFor(arg);
  if (!repository) return void vscode.window.showErrorMessage('OpenCode: no git repository is open (the built-in Git extension must be enabled).');
  if (repository.state.indexChanges.length === 0) return void vscode.window.showInformationMessage('OpenCode: stage the changes to describe first; the commit message is written from the staged diff.');
  const model = deps.settings.current.editor?.commitMessageModel || (await pickModelFor(deps.models, 'commitMessage.model', 'commit messages'));
  if (!model) return;
  const [diff, commits] = await Promise.all([repository.diff(true), repository.log({ maxEntries: RECENT_SUBJECTS }).catch(() => [])]);
  const prompt = buildCommitPrompt({ diff, recentSubjects: commits.map((c) => c.message) });
  if (prompt.summarized) {
    const note = summarizedNote(prompt.summarized);
    deps.log.info(`[commit] ${note}`);
    void vscode.window.showInformationMessage(`OpenCode: ${note}`);
  }
  const started = Date.now();
  // A failed answer, a cut one included, is discarded (issue 29 item 4): the box gets back what it held before.
  // Cancelling keeps what arrived: the user stopped it on purpose.
  const previous = repository.inputBox.value;
  let text = '';
  await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `OpenCode: writing a commit message with ${outsideText(model)}…`, cancellable: true }, async (_progress, token) => {
    const subscription = token.onCancellationRequested(() => controller.abort());
    try {
      await deps.engine.run({ purpose: 'commit', modelId: model, messages: prompt.messages, tools: [], imageInput: false }, deps.listedOf(model), (event) => {
        if (event.kind !== 'text' || controller.signal.aborted) return;
        text += event.text;
        repository.inputBox.value = cleanCommitMessage(text);
      }, controller.signal);
      repository.inputBox.value = cleanCommitMessage(text);
      deps.log.info(`[commit] ${outsideText(model)}: ${Date.now() - started} ms, ${repository.inputBox.value.length} chars${prompt.summarized ? ' (diff summarized)' : ''}.`);
    } catch (error) {
      if (controller.signal.aborted) return void deps.log.info(`[commit] ${outsideText(model)}: cancelled after ${Date.now() - started} ms.`);
      repository.inputBox.value = previous;
      deps.log.warn(`[commit] ${outsideText(model)}: ${error instanceof Error ? error.message : String(error)}`);
      void vscode.window.showErrorMessage(`OpenCode could not write the commit message: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      subscription.dispose();
    }
  });
}

/** The repository the button was pressed on (its SourceControl's rootUri), else the one with staged changes, else the first. */
async function repositoryFor(arg: unknown): Promise<GitRepository | undefined> {
  const extension = vscode.extensions.getExtension<{ getAPI(version: 1): GitApi }>('vscode.git');
  if (!extension) return undefined;
  const api = (extension.isActive ? extension.exports : await extension.activate()).getAPI(1);
  const root = (arg as { rootUri?: vscode.Uri } | undefined)?.rootUri?.toString();
  return api.repositories.find((r) => root && r.rootUri.toString() === root) ?? api.repositories.find((r) => r.state.indexChanges.length > 0) ?? api.repositories[0];
}
