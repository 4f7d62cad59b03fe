/**
 * The LanguageModelChatProvider VS Code calls. It only translates: VS Code types in, the core engine
 * does the work, VS Code parts out. Every request has its own state; nothing per request lives here.
 */
import * as vscode from 'vscode';
import { errorLogLine, unexpectedErrorMessage, UserFacingError } from '../core/request/userFacingError';
import { countMessageTokens, countTokens } from '../core/tokens/tokenCounter';
import type { ModelEntry } from '../core/types';
import { describeModel } from './modelInfo';
import { carriesImages, describerOf, type EndpointPart, type EndpointRegistry } from './endpointParts';
import { reportEvent } from './reportEvents';
import { toChatMessages, toChatTools, toToolMode } from './toChatMessages';
import { pickedEffort } from './pickedEffort';
import { EffortOffersLog } from './effortOffers';
import { limitsOf, listedFields, offered } from '../core/models/modelTable';
import { isSideRequest } from '../core/request/purpose';

export class OpenCodeChatProvider implements vscode.LanguageModelChatProvider {
  private readonly infoChanged = new vscode.EventEmitter<void>();
  /** Fires when the list changes, and when settings or a learned limit change what a model reports. */
  readonly onDidChangeLanguageModelChatInformation = this.infoChanged.event;
  private readonly effortOffers: EffortOffersLog;

  constructor(
    private readonly endpoints: EndpointRegistry,
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
    const models = await this.endpoints.models();
    // Only an explicit request (not silent discovery) may ask the user for anything.
    if (!options.silent && (await this.endpoints.default().list.needsKey())) this.offerKeyPrompt();
    const describers = new Map<EndpointPart, boolean>();
    const describes = (part: EndpointPart): boolean =>
      describers.get(part) ?? describers.set(part, !!describerOf(part, this.endpoints.settingsOf(part), models.filter((m) => m.part === part).map((m) => m.entry))).get(part) === true;
    const infos = models.flatMap(({ part, entry: listed, pickId }) => {
      const settings = this.endpoints.settingsOf(part);
      // The engine's lookup: the table with this endpoint's overrides and what its refusals taught (the one source).
      const { entry, facts } = part.engine.resolve(listed);
      if (!offered(facts, settings)) return [];
      // A text-only model takes images when a vision model of its endpoint describes them (endpointParts.ts describerOf).
      const described = !entry.imageInput && describes(part);
      return [{ ...describeModel(described ? { ...entry, imageInput: true } : entry, limitsOf(facts), settings, facts, part.config().label, part.list.unreachable()), id: pickId }];
    });
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
    const { part, listed } = this.listedEntry(model);
    const entry = part.engine.resolve(listed).entry;
    const chatMessages = toChatMessages(messages);
    const describeWith = entry.imageInput || !carriesImages(chatMessages) ? undefined : describerOf(part, this.endpoints.settingsOf(part), await part.list.models().catch(() => []));
    const tools = toChatTools(options.tools);
    // Title and summary requests do not move chat's context indicator (sideRequest.ts).
    const side = isSideRequest(chatMessages, tools);
    const controller = new AbortController();
    const subscription = token.onCancellationRequested(() => controller.abort());
    try {
      await part.engine.run(
        { purpose: side ? 'side' : 'conversation', modelId: entry.id, messages: chatMessages, imageInput: entry.imageInput, describeWith, tools, toolMode: toToolMode(options.toolMode), modelOptions: options.modelOptions, effort: pickedEffort(options) },
        listedFields(listed),
        (event) => (side && event.kind === 'usage' ? undefined : reportEvent(event, progress)),
        controller.signal,
      );
    } catch (error) {
      if (error instanceof UserFacingError && error.kind === 'cancelled') return;
      if (error instanceof UserFacingError) {
        const limit = error.kind === 'quota' || error.kind === 'rate' ? await this.explainLimit?.().catch(() => undefined) : undefined;
        const message = limit ? `${error.message} ${limit}` : error.message;
        if (!error.logged) this.log.error(errorLogLine(entry.id, limit ? new UserFacingError(error.kind, message, error.detail, error.status) : error));
        this.onFailed?.(error);
        throw chatError(message);
      }
      this.log.error(errorLogLine(entry.id, error));
      throw chatError(unexpectedErrorMessage(error));
    } finally {
      subscription.dispose();
    }
  }

  async provideTokenCount(model: vscode.LanguageModelChatInformation, text: string | vscode.LanguageModelChatRequestMessage): Promise<number> {
    // Counted in the endpoint's units: the calibration factor maps o200k counts onto what the API bills,
    // so chat's own budgeting agrees with the trim's.
    const { part, modelId } = this.endpoints.resolve(model.id);
    const factor = part.engine.calibrations.factor(modelId);
    const raw = typeof text === 'string' ? countTokens(text) : countMessageTokens(toChatMessages([text])[0]);
    return Math.ceil(raw * factor);
  }

  /** The endpoint and what its list says of the model (the endpoint's own model id); its engine resolves the rest. */
  private listedEntry(model: vscode.LanguageModelChatInformation): { part: EndpointPart; listed: ModelEntry } {
    const { part, modelId } = this.endpoints.resolve(model.id);
    const listed = part.list.find(modelId, part.config().baseUrl) ?? {
      id: modelId,
      name: model.name,
      toolCalling: true,
      imageInput: !!model.capabilities.imageInput,
      limitSource: 'unknown' as const,
    };
    return { part, listed };
  }
}

/**
 * The error chat shows: its message alone. VS Code's chat renders an error's stack too, so a stack would show the
 * message twice with a location in the bundle (`at sc.provideLanguageModelChatResponse (…/dist/extension.js:70:…)`);
 * the log's line has what a developer needs.
 */
function chatError(message: string): Error {
  const error = new Error(message);
  error.stack = '';
  return error;
}
