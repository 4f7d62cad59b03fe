/**
 * The `@opencode` chat participant: lets people chat with OpenCode models where no other participant can answer
 * (code-server, VSCodium, offline machines without GitHub Copilot). It forwards the prompt plus the earlier turns of
 * the conversation to an OpenCode model and streams the answer back as markdown.
 */
import * as vscode from 'vscode';
import { ERROR_DETAIL_MAX, excerptOf } from '../core/util/excerpt';

export const PARTICIPANT_ID = 'opencode.chat';
const VENDOR = 'opencode';

type HistoryTurn = vscode.ChatRequestTurn | vscode.ChatResponseTurn;

/** Earlier turns as chat messages: the user's prompts and the markdown this participant answered with. */
export function historyToMessages(history: readonly HistoryTurn[]): vscode.LanguageModelChatMessage[] {
  const messages: vscode.LanguageModelChatMessage[] = [];
  for (const turn of history) {
    if ('prompt' in turn) {
      if (turn.prompt.trim()) messages.push(vscode.LanguageModelChatMessage.User(turn.prompt));
      continue;
    }
    const text = turn.response
      .map(part => (part instanceof vscode.ChatResponseMarkdownPart ? part.value.value : ''))
      .join('');
    if (text.trim()) messages.push(vscode.LanguageModelChatMessage.Assistant(text));
  }
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

function makeHandler(log: vscode.LogOutputChannel): vscode.ChatRequestHandler {
  return async (request, chatContext, stream, token) => {
    const model = await chooseModel(request.model);
    if (!model) {
      failure(stream, 'No OpenCode model is available.',
        'Set an API key with the "OpenCode: Set API Key" command, or point the opencode.baseUrl setting at an ' +
        'OpenAI-compatible endpoint.');
      return {};
    }
    const messages = [...historyToMessages(chatContext.history), vscode.LanguageModelChatMessage.User(request.prompt)];
    log.info(`[participant] @opencode -> ${model.id} (${messages.length} message(s))`);
    try {
      const response = await model.sendRequest(messages, {}, token);
      for await (const chunk of response.text) {
        if (token.isCancellationRequested) break;
        stream.markdown(chunk);
      }
    } catch (err) {
      if (token.isCancellationRequested) return {};
      const detail = describeError(err);
      log.error(`[participant] request to ${model.id} failed: ${detail}`);
      failure(stream, 'OpenCode request failed.', detail);
    }
    return { metadata: { model: model.id } };
  };
}

/**
 * Registers `@opencode` (also added to context.subscriptions) and asks for the OpenCode models once, so VS Code
 * resolves them and the chat view's model picker lists them (VS Code resolves provider models lazily).
 */
export function registerOpenCodeParticipant(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): vscode.Disposable {
  const participant = vscode.chat.createChatParticipant(PARTICIPANT_ID, makeHandler(log));
  participant.iconPath = new vscode.ThemeIcon('comment-discussion');
  context.subscriptions.push(participant);
  vscode.lm.selectChatModels({ vendor: VENDOR }).then(
    models => log.info(`[participant] ${models.length} OpenCode model(s) available in chat`),
    err => log.warn(`[participant] could not list OpenCode models: ${describeError(err)}`),
  );
  return participant;
}
