/**
 * A chat view as VS Code 1.139 drives a participant, for the shared vscode double: each request carries the
 * references the user attached plus those VS Code adds by itself (the hidden "Chat customizations index"), and the
 * next request's history holds its own copy of that turn — the hidden references gone, the others under other ids
 * and without their ranges — and the ChatResult as VS Code stores it (JSON, so also after a restart of the window).
 */
import * as assert from 'assert';
import { PARTICIPANT_ID } from '../../vscode/chatParticipant';
import * as double from './vscodeDouble';

export interface ChatReference {
  id: string;
  range?: [number, number];
  value: unknown;
  modelDescription?: string;
}

export interface ChatViewTurn {
  prompt: string;
  /** What the user attached: shown in the prompt by a marker, kept (changed) in the history. */
  references?: ChatReference[];
  /** What VS Code attached by itself: on the current request only. */
  hidden?: ChatReference[];
}

/** The hidden reference VS Code 1.139 attaches to each new turn. */
export function customizationsIndex(text: string): ChatReference {
  return { id: 'vscode.prompt.instructions.index', value: text, modelDescription: 'Chat customizations index' };
}

/** A marker `#kind:name` appended to `words`, with the reference's range pointing at it. */
export function withMarkers(words: string, refs: { marker: string; value: unknown; id?: string }[]): { prompt: string; references: ChatReference[] } {
  const prompt = [words, ...refs.map((r) => r.marker)].join(' ');
  let from = words.length;
  const references = refs.map((r) => {
    const start = prompt.indexOf(r.marker, from);
    from = start + r.marker.length;
    return { id: r.id ?? 'vscode.file', range: [start, start + r.marker.length] as [number, number], value: r.value };
  });
  // VS Code lists references last-first.
  return { prompt, references: references.reverse() };
}

export class ChatView {
  /** The history as the participant's next request sees it. */
  readonly history: unknown[] = [];
  /** What each turn streamed into the chat. */
  readonly shown: string[] = [];

  /** Sends one turn to `@opencode` with `model` and stores the turn the way VS Code does. */
  async send(model: unknown, turn: ChatViewTurn): Promise<unknown> {
    const participant = double.registeredParticipants.get(PARTICIPANT_ID);
    assert.ok(participant, '@opencode is registered');
    const streamed: string[] = [];
    const references = [...(turn.references ?? []), ...(turn.hidden ?? [])];
    const result = await participant.handler(
      { prompt: turn.prompt, model, references },
      { history: [...this.history] },
      { markdown: (md: string | { value: string }) => streamed.push(typeof md === 'string' ? md : md.value) },
      new double.CancellationTokenSource().token,
    );
    const text = streamed.join('');
    this.shown.push(text);
    const historyRefs = (turn.references ?? []).map((r) => ({ id: `history:${r.id}`, value: r.value, modelDescription: r.modelDescription }));
    this.history.push({ prompt: turn.prompt, references: historyRefs, participant: PARTICIPANT_ID });
    const markdown = new double.ChatResponseMarkdownPart(new double.MarkdownString().appendMarkdown(text));
    this.history.push({ response: [markdown], result: JSON.parse(JSON.stringify(result ?? {})), participant: PARTICIPANT_ID });
    return result;
  }
}
