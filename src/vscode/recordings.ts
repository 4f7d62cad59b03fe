/**
 * The request recordings (opencode.recordRequests) the session report can open: this window's
 * `<log folder>/requests/*.jsonl`, and — since VS Code gives each launch a new log folder,
 * `<logs>/<launch>/window<N>/exthost/<extension>` — the same folder of the earlier launches VS Code still
 * keeps, so a conversation from before a restart can be opened.
 */
import * as fs from 'fs';
import * as path from 'path';
import type { Settings } from '../core/config/settings';
import { MAX_RECORDING_BYTES, readRecording, type RecordingResult } from '../core/report/recordedConversation';
import { parseRecordingMeta } from '../core/replay/recordingMeta';

export interface RecordingFile {
  file: string;
  /** The file name without `.jsonl`: the conversation's session id. */
  sessionId: string;
  mtimeMs: number;
  bytes: number;
}

export const MAX_LISTED_RECORDINGS = 20;

/** This window's log folder and, when it sits in VS Code's folder tree, the same folder of earlier launches. */
export function recordingFolders(logDir: string): string[] {
  const folders = [path.join(logDir, 'requests')];
  const extension = path.basename(logDir);
  const exthost = path.dirname(logDir);
  const windowDir = path.dirname(exthost);
  const launchDir = path.dirname(windowDir);
  if (path.basename(exthost) !== 'exthost' || !/^window\d+$/.test(path.basename(windowDir))) return folders;
  for (const launch of safeList(path.dirname(launchDir))) {
    for (const win of safeList(path.join(path.dirname(launchDir), launch)).filter((w) => /^window\d+$/.test(w))) {
      const folder = path.join(path.dirname(launchDir), launch, win, 'exthost', extension, 'requests');
      if (!folders.includes(folder)) folders.push(folder);
    }
  }
  return folders;
}

function safeList(folder: string): string[] {
  try {
    return fs.readdirSync(folder);
  } catch {
    return [];
  }
}

/** The newest recordings first, at most MAX_LISTED_RECORDINGS; unreadable folders are skipped. */
export function listRecordings(logDir: string): RecordingFile[] {
  const found: RecordingFile[] = [];
  for (const folder of recordingFolders(logDir)) {
    for (const name of safeList(folder).filter((n) => n.endsWith('.jsonl'))) {
      try {
        const stat = fs.statSync(path.join(folder, name));
        if (stat.isFile()) found.push({ file: path.join(folder, name), sessionId: name.slice(0, -'.jsonl'.length), mtimeMs: stat.mtimeMs, bytes: stat.size });
      } catch {
        // Deleted while listing: not offered.
      }
    }
  }
  return found.sort((a, b) => b.mtimeMs - a.mtimeMs).slice(0, MAX_LISTED_RECORDINGS);
}

function readIfThere(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** A recording and its meta file, parsed and validated (core/report/recordedConversation.ts); never throws. */
export function readRecordingFile(file: string, settings: Settings): RecordingResult {
  const name = path.basename(file);
  try {
    const stat = fs.statSync(file);
    if (stat.size > MAX_RECORDING_BYTES) return { ok: false, reason: `${name} is ${Math.round(stat.size / 1048576)} MiB, more than the report reads; replay it with npm run replay -- FILE.` };
    const meta = parseRecordingMeta(readIfThere(file.replace(/\.jsonl$/, '.meta.json')));
    return readRecording(name, fs.readFileSync(file, 'utf8'), settings, meta, stat.mtimeMs);
  } catch (error) {
    return { ok: false, reason: `${name} could not be read (${error instanceof Error ? error.message : String(error)}).` };
  }
}
