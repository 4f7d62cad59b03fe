/**
 * Turns a chat request's references into plain values for core/participant/promptReferences.ts: a string
 * (pasted text and other text values) as is, a Uri as the file's text (or image), a Location as the text of
 * its range, binary image data as an image. Anything else, or anything unreadable, becomes a short reason.
 */
import * as vscode from 'vscode';
import { referenceName, type ResolvedReference } from '../core/participant/promptReferences';

const MAX_FILE_BYTES = 2 * 1024 * 1024;
const IMAGE_TYPES: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp' };

interface BinaryLike {
  mimeType: string;
  data(): Thenable<Uint8Array>;
}

function isBinaryLike(value: unknown): value is BinaryLike {
  return !!value && typeof value === 'object' && typeof (value as BinaryLike).mimeType === 'string' && typeof (value as BinaryLike).data === 'function';
}

async function readUri(uri: vscode.Uri, name: string): Promise<ResolvedReference> {
  const ext = uri.path.slice(uri.path.lastIndexOf('.') + 1).toLowerCase();
  // An open editor's text is what the user sees (unsaved edits, untitled files); the disk may be older.
  const open = IMAGE_TYPES[ext] ? undefined : vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (open) return { kind: 'text', name, text: open.getText() };
  const stat = await vscode.workspace.fs.stat(uri);
  if (stat.type & vscode.FileType.Directory) return { kind: 'unavailable', name, reason: 'a folder, not a file' };
  if (stat.size > MAX_FILE_BYTES) return { kind: 'unavailable', name, reason: `${Math.round(stat.size / 1024)} KiB is too large to attach` };
  const bytes = await vscode.workspace.fs.readFile(uri);
  if (IMAGE_TYPES[ext]) return { kind: 'image', name, mimeType: IMAGE_TYPES[ext], data: bytes };
  if (bytes.includes(0)) return { kind: 'unavailable', name, reason: 'a binary file' };
  return { kind: 'text', name, text: new TextDecoder().decode(bytes) };
}

/** "lines 5-7" as the editor shows the range: a range ending at the start of a line does not take that line. */
function linesOf(range: vscode.Range): string {
  const first = range.start.line + 1;
  const last = range.end.character === 0 && range.end.line > range.start.line ? range.end.line : range.end.line + 1;
  return first === last ? `line ${first}` : `lines ${first}-${last}`;
}

async function resolveOne(ref: vscode.ChatPromptReference, prompt: string): Promise<ResolvedReference> {
  const name = referenceName(prompt, ref.range, ref.modelDescription ?? ref.id);
  const value = ref.value;
  try {
    if (typeof value === 'string') return { kind: 'text', name, text: value };
    if (value instanceof vscode.Uri) return await readUri(value, name);
    if (value instanceof vscode.Location) {
      const doc = await vscode.workspace.openTextDocument(value.uri);
      return { kind: 'text', name: `${name} (${linesOf(value.range)})`, text: doc.getText(value.range) };
    }
    if (isBinaryLike(value)) return { kind: 'image', name, mimeType: value.mimeType, data: await value.data() };
    return { kind: 'unavailable', name, reason: 'a kind of reference @opencode cannot read' };
  } catch (error) {
    return { kind: 'unavailable', name, reason: `could not be read: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/** In prompt order (VS Code lists references last-first). */
export async function resolveReferences(references: readonly vscode.ChatPromptReference[], prompt: string): Promise<ResolvedReference[]> {
  const ordered = [...references].sort((a, b) => (a.range?.[0] ?? Infinity) - (b.range?.[0] ?? Infinity));
  return Promise.all(ordered.map((ref) => resolveOne(ref, prompt)));
}
