/**
 * The session report's conversation list in VS Code: the index (core/report/conversationIndex.ts) loaded from and
 * saved to globalState (debounced, off the request path), and the searchable pick of one conversation.
 */
import * as vscode from 'vscode';
import { CONVERSATION_INDEX_KEY, ConversationIndex, loadListed, type ListedConversation } from '../core/report/conversationIndex';
import type { RecordingFile } from './recordings';

/** Saves wait this long after a change, so a burst of agent requests is one write. */
const SAVE_DELAY_MS = 2_000;

/** The index and a disposable that writes what a pending save still holds (the window closes). */
export function loadConversationIndex(state: vscode.Memento, log: vscode.LogOutputChannel, flushFirst?: () => void): { index: ConversationIndex; saver: vscode.Disposable } {
  const { entries, dropped } = loadListed(state.get(CONVERSATION_INDEX_KEY));
  if (dropped > 0) log.warn(`[state] ${CONVERSATION_INDEX_KEY}: ${dropped} saved entr${dropped === 1 ? 'y' : 'ies'} dropped (invalid or over ${entries.length} kept).`);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const save = (): void => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    void Promise.resolve(state.update(CONVERSATION_INDEX_KEY, index.toJSON())).catch(() => undefined);
  };
  const index: ConversationIndex = new ConversationIndex(entries, () => {
    if (timer) return;
    timer = setTimeout(save, SAVE_DELAY_MS);
    timer.unref?.();
  });
  return { index, saver: { dispose: () => (flushFirst?.(), timer && save()) } };
}

interface PickItem extends vscode.QuickPickItem {
  id: string;
}

/** The report's id of an entry: a conversation in memory, or a recording. */
export interface PickSources {
  listed: ListedConversation[];
  inMemory: (sessionId: string) => boolean;
  recordings: RecordingFile[];
  recordedId: (file: string) => string;
}

const when = (at: number): string => {
  const date = new Date(at);
  return date.toDateString() === new Date().toDateString() ? date.toLocaleTimeString() : date.toLocaleString();
};

/** The items of the pick: this window's conversations, then earlier windows', then other recordings; type to search names. */
export function pickItems({ listed, inMemory, recordings, recordedId }: PickSources): PickItem[] {
  const byFile = new Map(recordings.map((r) => [r.sessionId, r]));
  const items: PickItem[] = listed.map((entry) => {
    const recording = byFile.get(entry.sessionId);
    const where = inMemory(entry.sessionId) ? '' : recording ? ' · from its recording' : ' · earlier window (not in memory)';
    return {
      label: entry.name,
      description: `${entry.modelId} · ${entry.requests} request(s), last at ${when(entry.lastAt)}${entry.earlier ? ' · earlier window' : ''}`,
      detail: where ? where.slice(3) : undefined,
      id: inMemory(entry.sessionId) || !recording ? entry.sessionId : recordedId(recording.file),
    };
  });
  const listedIds = new Set(listed.map((e) => e.sessionId));
  for (const r of recordings) {
    if (listedIds.has(r.sessionId)) continue;
    items.push({
      label: `$(file) recorded ${r.sessionId.slice(0, 12)}`,
      description: `${Math.max(1, Math.round(r.bytes / 1024))} KiB, saved ${new Date(r.mtimeMs).toLocaleString()}`,
      detail: r.file,
      id: recordedId(r.file),
    });
  }
  return items;
}
