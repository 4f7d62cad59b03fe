/**
 * The LanguageModelChatProvider VS Code calls. It only translates: VS Code types in, the core engine
 * does the work, VS Code parts out. Every request has its own state; nothing per request lives here.
 */
import * as vscode from 'vscode';
import type { ChatEngine } from '../core/request/chatEngine';
import { errorLogLine, unexpectedErrorMessage, UserFacingError } from '../core/request/userFacingError';
import { countMessageTokens, countTokens } from '../core/tokens/tokenCounter';
import type { ModelEntry } from '../core/types';
import { describeModel } from './modelInfo';
import type { ModelCatalog } from './modelCatalog';
import type { SettingsReader } from './settingsReader';
import { reportEvent } from './reportEvents';
import { toChatMessages, toChatTools, toToolMode } from './toChatMessages';
import { offered, resolveEntry } from '../core/models/modelEntries';
import { pickedEffort } from './pickedEffort';
import { EffortOffersLog } from './effortOffers';
import { isSideRequest } from '../core/request/sideRequest';

export class OpenCodeChatProvider implements vscode.LanguageModelChatProvider {
  private readonly infoChanged = new vscode.EventEmitter<void>();
  /** Fires when the list changes, and when settings or a learned limit change what a model reports. */
  readonly onDidChangeLanguageModelChatInformation = this.infoChanged.event;
  private readonly effortOffers: EffortOffersLog;

  constructor(
    private readonly engine: ChatEngine,
    private readonly catalog: ModelCatalog,
    private readonly settings: SettingsReader,
    private readonly log: vscode.LogOutputChannel,
    private readonly offerKeyPrompt: () => void,
    /** For a quota or rate-limit failure: which OpenCode Go window is full and when it resets, if known. */
    private readonly explainLimit?: () => Promise<string | undefined>,
    /** Every failure shown to the user (the status bar warns when a request does not fit). */
    private readonly onFailed?: (error: UserFacingError) => void,
  ) {
    this.effortOffers = new EffortOffersLog(log);
  }

  /** Model info may have changed: VS Code asks again. */
  notifyInfoChanged(): void {
    this.infoChanged.fire();
  }

  async provideLanguageModelChatInformation(options: vscode.PrepareLanguageModelChatModelOptions): Promise<vscode.LanguageModelChatInformation[]> {
    const models = await this.catalog.models();
    // Only an explicit request (not silent discovery) may ask the user for anything.
    if (!options.silent && (await this.catalog.needsKey())) this.offerKeyPrompt();
    const settings = this.settings.current;
    const infos = models
      .map((model) => resolveEntry(model, settings))
      .filter(({ facts }) => offered(facts, settings))
      .map(({ entry, facts }) => describeModel(entry, this.engine.limitsFor(entry.id, entry), settings, facts));
    this.effortOffers.note(infos);
    return infos;
  }

  async provideLanguageModelChatResponse(
    model: vscode.LanguageModelChatInformation,
    messages: readonly vscode.LanguageModelChatRequestMessage[],
    options: vscode.ProvideLanguageModelChatResponseOptions,
    progress: vscode.Progress<vscode.LanguageModelResponsePart>,
    token: vscode.CancellationToken,
  ): Promise<void> {
    const entry = this.resolvedEntry(model);
    const chatMessages = toChatMessages(messages);
    const tools = toChatTools(options.tools);
    // Title and summary requests do not move chat's context indicator (sideRequest.ts).
    const side = isSideRequest(chatMessages, tools);
    const controller = new AbortController();
    const subscription = token.onCancellationRequested(() => controller.abort());
    try {
      await this.engine.run(
        { modelId: entry.id, messages: chatMessages, imageInput: entry.imageInput, tools, toolMode: toToolMode(options.toolMode), modelOptions: options.modelOptions, effort: pickedEffort(options) },
        entry,
        (event) => (side && event.kind === 'usage' ? undefined : reportEvent(event, progress)),
        controller.signal,
      );
    } catch (error) {
      if (error instanceof UserFacingError && error.kind === 'cancelled') return;
      if (error instanceof UserFacingError) {
        const limit = error.kind === 'quota' || error.kind === 'rate' ? await this.explainLimit?.().catch(() => undefined) : undefined;
        const message = limit ? `${error.message} ${limit}` : error.message;
        this.log.error(errorLogLine(entry.id, limit ? new UserFacingError(error.kind, message, error.detail, error.status) : error));
        this.onFailed?.(error);
        throw new Error(message);
      }
      this.log.error(errorLogLine(entry.id, error));
      throw new Error(unexpectedErrorMessage(error));
    } finally {
      subscription.dispose();
    }
  }

  async provideTokenCount(model: vscode.LanguageModelChatInformation, text: string | vscode.LanguageModelChatRequestMessage): Promise<number> {
    // Counted in the endpoint's units: the calibration factor maps o200k counts onto what the API bills,
    // so chat's own budgeting agrees with the trim's.
    const factor = this.engine.calibrations.factor(model.id);
    const raw = typeof text === 'string' ? countTokens(text) : countMessageTokens(toChatMessages([text])[0]);
    return Math.ceil(raw * factor);
  }

  private resolvedEntry(model: vscode.LanguageModelChatInformation): ModelEntry {
    return resolveEntry(this.listedEntry(model), this.settings.current).entry;
  }

  private listedEntry(model: vscode.LanguageModelChatInformation): ModelEntry {
    return (
      this.catalog.find(model.id, this.settings.current.baseUrl) ?? {
        id: model.id,
        name: model.name,
        toolCalling: true,
        imageInput: !!model.capabilities.imageInput,
        limitSource: 'unknown',
      }
    );
  }
}
