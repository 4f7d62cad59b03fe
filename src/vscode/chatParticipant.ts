/**
 * The `@opencode` chat participant: lets people chat with OpenCode models where no other participant can answer
 * (code-server, VSCodium, offline machines without GitHub Copilot). It forwards the prompt plus the earlier turns of
 * the conversation to an OpenCode model and streams the answer back as markdown.
 */
import * as vscode from 'vscode';
import { ERROR_DETAIL_MAX, excerptOf, outsideText } from '../core/util/excerpt';
import { composePrompt, omittedFooter, type PromptPart } from '../core/participant/promptReferences';
import type { RequestRecord } from '../core/report/requestLog';
import { SENT_TURN_FIELD, sentTurnOf, sentTurnRecord, type SentTurn } from '../core/participant/sentTurn';
import { resolveReferences } from './resolveReferences';

export const PARTICIPANT_ID = 'opencode.chat';
const VENDOR = 'opencode';

type HistoryTurn = vscode.ChatRequestTurn | vscode.ChatResponseTurn;

/** The quiet lines this participant appends (trim note, footer); not part of the answer the model gave. */
const QUIET_TAIL = /\n\n---\n_[^\n]*_(?: {2}\n_[^\n]*_)*$/;

function markdownOf(turn: vscode.ChatResponseTurn): string {
  return turn.response
    .map(part => (part instanceof vscode.ChatResponseMarkdownPart ? part.value.value : ''))
    .join('')
    .replace(QUIET_TAIL, '');
}

/** What the turn's answer keeps in its metadata (sentTurn.ts): the history's own copy of a turn loses attachments. */
function keptTurn(turn: HistoryTurn | undefined): SentTurn | undefined {
  return turn && !('prompt' in turn) ? sentTurnOf(turn.result?.metadata) : undefined;
}

/**
 * Earlier turns as chat messages, each as it was sent: the user message with every attachment it carried and the
 * model's answer, read from the metadata this participant returned for that turn. A turn without it (answered by
 * an older version) goes as its prompt text and the answer's markdown; a failed turn's error text is not sent.
 */
export function historyToMessages(history: readonly HistoryTurn[]): vscode.LanguageModelChatMessage[] {
  const messages: vscode.LanguageModelChatMessage[] = [];
  history.forEach((turn, i) => {
    if ('prompt' in turn) {
      const sent = keptTurn(history[i + 1]);
      if (sent) messages.push(vscode.LanguageModelChatMessage.User(sent.parts.map(toContent)));
      else if (turn.prompt.trim()) messages.push(vscode.LanguageModelChatMessage.User(turn.prompt));
      return;
    }
    const sent = keptTurn(turn);
    const text = sent ? (sent.answer ?? '') : markdownOf(turn);
    if (text.trim()) messages.push(vscode.LanguageModelChatMessage.Assistant(text));
  });
  return messages;
}

/** The model picked in the chat view when it is ours, else the first OpenCode model. */
async function chooseModel(picked: vscode.LanguageModelChat | undefined): Promise<vscode.LanguageModelChat | undefined> {
  if (picked?.vendor === VENDOR) return picked;
  const [first] = await vscode.lm.selectChatModels({ vendor: VENDOR });
  return first;
}

/** A short redacted excerpt: the error may come from any provider, quote a header or a URL, or carry an HTML page. */
function describeError(err: unknown): string {
  if (err instanceof vscode.LanguageModelError) return excerptOf(err.code ? `${err.message} (${err.code})` : err.message, ERROR_DETAIL_MAX);
  return excerptOf(err instanceof Error ? err.message : String(err), ERROR_DETAIL_MAX);
}

function failure(stream: vscode.ChatResponseStream, title: string, detail: string): void {
  const md = new vscode.MarkdownString();
  md.appendMarkdown(`**${title}**\n\n`);
  md.appendText(detail);
  stream.markdown(md);
}

/** Attachments may take half of the model's input limit; the history trim fits the rest. */
const ATTACHMENT_SHARE = 0.5;

type DataPartClass = new (data: Uint8Array, mimeType: string) => vscode.LanguageModelTextPart;
/** LanguageModelDataPart is in VS Code ≥ 1.105's API but not in the @types this builds against. */
const dataPartClass = (): DataPartClass | undefined => (vscode as unknown as { LanguageModelDataPart?: DataPartClass }).LanguageModelDataPart;

function toContent(part: PromptPart): vscode.LanguageModelTextPart {
  if (part.kind === 'text') return new vscode.LanguageModelTextPart(part.text);
  const DataPart = dataPartClass() as DataPartClass;
  return new DataPart(part.data, part.mimeType);
}

/** The runtime model object says so as `supportsImageToText` (VS Code 1.139) or `imageInput`. */
function takesImages(model: vscode.LanguageModelChat): boolean {
  const caps = (model as { capabilities?: { imageInput?: boolean; supportsImageToText?: boolean } }).capabilities;
  return !!(caps?.imageInput || caps?.supportsImageToText);
}

/** The user's turn: attachments first (as the chat view shows them), then the prompt; and what was left out. */
async function userTurn(request: vscode.ChatRequest, model: vscode.LanguageModelChat): Promise<{ parts: PromptPart[]; footer?: string }> {
  const resolved = await resolveReferences(request.references ?? [], request.prompt);
  const composed = composePrompt(request.prompt, resolved, {
    maxTokens: Math.floor(model.maxInputTokens * ATTACHMENT_SHARE),
    imageInput: !!dataPartClass() && takesImages(model),
  });
  return { parts: composed.parts, footer: omittedFooter(composed.notes) };
}

/** Options of the participant beyond the log: the last accounted request, for the "older turns left out" line. */
export interface ParticipantDeps {
  lastRequest?: () => RequestRecord | undefined;
  /** An answer was streamed (the walkthrough's chat step). */
  onAnswered?: () => void;
}

function trimNote(before: RequestRecord | undefined, after: RequestRecord | undefined): string | undefined {
  if (!after || after === before || after.removed === 0) return undefined;
  return `_${after.removed} older message(s) of this conversation were not sent, to fit the model's window._`;
}

function makeHandler(log: vscode.LogOutputChannel, deps: ParticipantDeps): vscode.ChatRequestHandler {
  return async (request, chatContext, stream, token) => {
    const model = await chooseModel(request.model);
    if (!model) {
      failure(stream, 'No OpenCode model is available.',
        'Set an API key with the "OpenCode: Set API Key" command, or point the opencode.baseUrl setting at an ' +
        'OpenAI-compatible endpoint.');
      return {};
    }
    const turn = await userTurn(request, model);
    const messages = [...historyToMessages(chatContext.history), vscode.LanguageModelChatMessage.User(turn.parts.map(toContent))];
    log.info(`[participant] @opencode -> ${outsideText(model.id)} (${messages.length} message(s), ${turn.parts.length - 1} attachment part(s))`);
    const before = deps.lastRequest?.();
    // Kept with the turn (sentTurn.ts) so later requests send it again exactly so.
    const kept = (answer?: string): vscode.ChatResult => ({ metadata: { model: model.id, [SENT_TURN_FIELD]: sentTurnRecord({ parts: turn.parts, answer }) } });
    let answer = '';
    try {
      const response = await model.sendRequest(messages, {}, token);
      for await (const chunk of response.text) {
        if (token.isCancellationRequested) break;
        stream.markdown(chunk);
        answer += chunk;
      }
      if (answer) deps.onAnswered?.();
      const quiet = [trimNote(before, deps.lastRequest?.()), turn.footer && `_${turn.footer}_`].filter(Boolean);
      if (quiet.length && !token.isCancellationRequested) stream.markdown(`\n\n---\n${quiet.join('  \n')}`);
    } catch (err) {
      if (token.isCancellationRequested) return kept(answer);
      // A cut answer (issue 29 item 4): the text that arrived stays shown and kept, with the error beside it.
      if (answer) {
        log.warn(`[participant] answer from ${model.id} was cut off: ${describeError(err)}`);
        return { ...kept(answer), errorDetails: { message: describeError(err) } };
      }
      const detail = describeError(err);
      log.error(`[participant] request to ${outsideText(model.id)} failed: ${detail}`);
      failure(stream, 'OpenCode request failed.', detail);
      return kept();
    }
    return kept(answer);
  };
}

/**
 * Registers `@opencode` (also added to context.subscriptions) and asks for the OpenCode models once, so VS Code
 * resolves them and the chat view's model picker lists them (VS Code resolves provider models lazily).
 */
export function registerOpenCodeParticipant(context: vscode.ExtensionContext, log: vscode.LogOutputChannel, deps: ParticipantDeps = {}): vscode.Disposable {
  const participant = vscode.chat.createChatParticipant(PARTICIPANT_ID, makeHandler(log, deps));
  participant.iconPath = new vscode.ThemeIcon('comment-discussion');
  context.subscriptions.push(participant);
  vscode.lm.selectChatModels({ vendor: VENDOR }).then(
    models => log.info(`[participant] ${models.length} OpenCode model(s) available in chat`),
    err => log.warn(`[participant] could not list OpenCode models: ${describeError(err)}`),
  );
  return participant;
}
