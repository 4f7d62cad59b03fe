/**
 * The LanguageModelChatProvider VS Code calls. It only translates: VS Code types in, the core engine
 * does the work, VS Code parts out. Every request has its own state; nothing per request lives here. What VS Code
 * is told of the models (the listing) is kept until something it depends on changes, not made again per request.
 */
import * as vscode from 'vscode';
import { errorLogLine, unexpectedErrorMessage, UserFacingError } from '../core/request/userFacingError';
import { countMessageTokens, countTokens } from '../core/tokens/tokenCounter';
import type { ModelEntry } from '../core/types';
import { describeModel, EffortOffersLog, type PickerModelInformation } from './modelInfo';
import { carriesImages, describerOf, type EndpointPart, type EndpointRegistry } from './endpointParts';
import { pickedEffort, reportEvent, toChatMessages, toChatTools, toToolMode } from './chatTypes';
import { limitsOf, listedFields, offered } from '../core/models/modelTable';
import { isSideRequest } from '../core/request/purpose';

/** What VS Code was told of the models, and what it was made from. */
interface Listing {
  infos: PickerModelInformation[];
  /** Until when it may be kept without a change event (the earliest ModelList.askAgainAt of its lists). */
  until: number;
  /** What the endpoint's list says of a picked model (by pick id), found on the model's first request. */
  listed: Map<string, ModelEntry | undefined>;
}

export class OpenCodeChatProvider implements vscode.LanguageModelChatProvider {
  private readonly infoChanged = new vscode.EventEmitter<void>();
  /** Fires when the list changes, and when settings or a learned limit change what a model reports. */
  readonly onDidChangeLanguageModelChatInformation = this.infoChanged.event;
  private readonly effortOffers: EffortOffersLog;
  /** The listing kept, and how many times model info changed (a listing made across a change is not kept). */
  private kept?: Listing;
  private changes = 0;

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

  /**
   * Model info may have changed (a list, the settings, a learned limit, the live model data): the kept listing is
   * dropped and VS Code asks again.
   */
  notifyInfoChanged(): void {
    this.changes++;
    this.kept = undefined;
    this.infoChanged.fire();
  }

  async provideLanguageModelChatInformation(options: vscode.PrepareLanguageModelChatModelOptions): Promise<vscode.LanguageModelChatInformation[]> {
    const listing = await this.listing();
    // Only an explicit request (not silent discovery) may ask the user for anything.
    if (!options.silent && (await this.endpoints.default().list.needsKey())) this.offerKeyPrompt();
    return [...listing.infos];
  }

  /** The kept listing while nothing it depends on changed and its lists are fresh; else a new one. */
  private async listing(): Promise<Listing> {
    if (this.kept && Date.now() < this.kept.until) return this.kept;
    for (let attempt = 0; ; attempt++) {
      const changes = this.changes;
      const listing = await this.list();
      const steady = Date.now() < listing.until;
      if (changes === this.changes) {
        if (steady) this.kept = listing;
        return listing;
      }
      // Something changed while listing (most often the list's own first fetch, announcing the list it saved): list
      // once more, from memory only (steady: no list asks the network), so the listing kept is the one after it.
      if (attempt > 0 || !steady) return listing;
    }
  }

  private async list(): Promise<Listing> {
    const models = await this.endpoints.models();
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
    return { infos, until: Math.min(...this.endpoints.all().map((part) => part.list.askAgainAt())), listed: new Map() };
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
    // Title and summary requests do not move chat's context indicator (core/request/purpose.ts).
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
    // Found once per kept listing: the list changes only with a change event, which drops the listing.
    const known = this.kept?.listed;
    const found = known?.has(model.id) ? known.get(model.id) : part.list.find(modelId, part.config().baseUrl);
    known?.set(model.id, found);
    const listed = found ?? {
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
