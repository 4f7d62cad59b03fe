/**
 * The list of changed files in a summarized commit prompt, within its own token budget: one line per file
 * when they fit; otherwise one line per folder (the deepest folder level whose lines fit, with each folder's
 * file count and line counts); when even the top-level folders do not fit, the folders with the most changed
 * lines that fit, and one line for the rest. Linear in the number of files for each level tried (at most
 * MAX_DEPTH); the same files give the same list.
 */
import { estimateTextTokens } from '../tokens/estimate';
import type { DiffFile } from './stagedDiff';

/** Longest path shown; a longer one keeps its end (the file name). */
export const MAX_PATH_CHARS = 200;
/** The deepest folder level tried when grouping. */
const MAX_DEPTH = 8;

export interface FileListing {
  text: string;
  tokens: number;
  /** Set when the files are listed by folder: how many folder lines, at which depth, and folders left out. */
  grouped?: { folders: number; depth: number; foldersLeftOut: number };
}

export const shownPath = (path: string): string => (path.length > MAX_PATH_CHARS ? `…${path.slice(path.length - MAX_PATH_CHARS)}` : path);

const fileLine = (f: DiffFile): string => `- ${shownPath(f.path)}: ${f.binary ? 'binary' : `+${f.added} −${f.removed}`}, ${f.hunks.length} hunk(s)`;

interface Folder {
  name: string;
  files: number;
  added: number;
  removed: number;
}

const folderLine = (g: Folder): string => `- ${shownPath(g.name)} (${g.files} file${g.files === 1 ? '' : 's'}): +${g.added} −${g.removed}`;

/** `a/b/c/d.ts` at depth 2 → `a/b/`; a file in a shallower folder keeps its own folder (`./` at the root). */
function folderOf(path: string, depth: number): string {
  const parts = path.split('/');
  const folders = parts.slice(0, Math.min(depth, parts.length - 1));
  return folders.length > 0 ? `${folders.join('/')}/` : './';
}

function foldersAt(files: readonly DiffFile[], depth: number): Folder[] {
  const byName = new Map<string, Folder>();
  for (const f of files) {
    const name = folderOf(f.path, depth);
    let g = byName.get(name);
    if (!g) byName.set(name, (g = { name, files: 0, added: 0, removed: 0 }));
    g.files++;
    g.added += f.added;
    g.removed += f.removed;
  }
  return [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** Lines joined, with their tokens (per line plus its newline), or undefined as soon as they pass `maxTokens`. */
function fit(lines: readonly string[], maxTokens: number): { text: string; tokens: number } | undefined {
  let tokens = 0;
  for (const line of lines) {
    tokens += estimateTextTokens(line) + 1;
    if (tokens > maxTokens) return undefined;
  }
  return { text: lines.join('\n'), tokens };
}

export function listFiles(files: readonly DiffFile[], maxTokens: number): FileListing {
  const each = fit(files.map(fileLine), maxTokens);
  if (each) return each;
  const deepest = Math.min(MAX_DEPTH, files.reduce((d, f) => Math.max(d, f.path.split('/').length - 1), 0));
  for (let depth = deepest; depth >= 1; depth--) {
    const folders = foldersAt(files, depth);
    const listed = fit(folders.map(folderLine), maxTokens);
    if (listed) return { ...listed, grouped: { folders: folders.length, depth, foldersLeftOut: 0 } };
  }
  return largestFolders(foldersAt(files, 1), maxTokens);
}

/** The top-level folders with the most changed lines that fit (shown in name order), then one line for the rest. */
function largestFolders(folders: readonly Folder[], maxTokens: number): FileListing {
  const rest = (left: readonly Folder[]): string => {
    const files = left.reduce((n, g) => n + g.files, 0);
    const added = left.reduce((n, g) => n + g.added, 0);
    const removed = left.reduce((n, g) => n + g.removed, 0);
    return `- … and ${left.length} more folder(s) (${files} files): +${added} −${removed}`;
  };
  const room = maxTokens - estimateTextTokens(rest(folders)) - 8; // the counts on the final line may grow a digit or two
  const ranked = [...folders].sort((a, b) => b.added + b.removed - (a.added + a.removed) || (a.name < b.name ? -1 : 1));
  const kept = new Set<Folder>();
  let used = 0;
  for (const g of ranked) {
    const cost = estimateTextTokens(folderLine(g)) + 1;
    if (used + cost > room) break;
    kept.add(g);
    used += cost;
  }
  const shown = folders.filter((g) => kept.has(g));
  const left = folders.filter((g) => !kept.has(g));
  const lines = [...shown.map(folderLine), rest(left)];
  const text = lines.join('\n');
  return { text, tokens: used + estimateTextTokens(rest(left)) + 1, grouped: { folders: shown.length, depth: 1, foldersLeftOut: left.length } };
}
