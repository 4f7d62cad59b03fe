/**
 * Turns a chat request's references into plain values for core/participant/promptReferences.ts: a string
 * (pasted text and other text values) as is, a Uri as the file's text (or image), a Location as the text of
 * its range, binary image data as an image. Anything else, or anything unreadable, becomes a short reason.
 */
import * as vscode from 'vscode';
import { imageName, referenceName, typedFileMarkers, type ResolvedReference } from '../core/participant/promptReferences';

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

/** Its marker in the prompt; else a file's workspace path (the id may be a whole `vscode-remote://…` URI); else its description. */
/** The `name` VS Code gives a reference at runtime (not in @types/vscode 1.104), when a string. */
function runtimeName(ref: vscode.ChatPromptReference): string | undefined {
  const name = (ref as { name?: unknown }).name;
  return typeof name === 'string' && name.trim() ? name : undefined;
}

function nameOf(ref: vscode.ChatPromptReference, prompt: string): string {
  const uri = ref.value instanceof vscode.Uri ? ref.value : ref.value instanceof vscode.Location ? ref.value.uri : undefined;
  return referenceName(prompt, ref.range, uri ? vscode.workspace.asRelativePath(uri) : (ref.modelDescription ?? ref.id));
}

/** A typed `#file:` path: in the first workspace folder that has it (or absolute). */
async function typedFile(path: string): Promise<ResolvedReference> {
  const candidates = path.startsWith('/') ? [vscode.Uri.file(path)] : (vscode.workspace.workspaceFolders ?? []).map((folder) => vscode.Uri.joinPath(folder.uri, path));
  for (const uri of candidates) {
    const found = await Promise.resolve(vscode.workspace.fs.stat(uri)).then(() => true, () => false);
    if (found) return readUri(uri, path).catch((error: unknown) => ({ kind: 'unavailable' as const, name: path, reason: `could not be read: ${error instanceof Error ? error.message : String(error)}` }));
  }
  return { kind: 'unavailable', name: path, reason: 'no such file in the workspace' };
}

async function resolveOne(ref: vscode.ChatPromptReference, prompt: string): Promise<ResolvedReference> {
  const name = nameOf(ref, prompt);
  const value = ref.value;
  try {
    if (typeof value === 'string') return { kind: 'text', name, text: value };
    if (value instanceof vscode.Uri) return await readUri(value, name);
    if (value instanceof vscode.Location) {
      const doc = await vscode.workspace.openTextDocument(value.uri);
      return { kind: 'text', name: `${name} (${linesOf(value.range)})`, text: doc.getText(value.range) };
    }
    if (isBinaryLike(value)) return { kind: 'image', name: imageName(runtimeName(ref) ?? name, value.mimeType), mimeType: value.mimeType, data: await value.data() };
    return { kind: 'unavailable', name, reason: 'a kind of reference @opencode cannot read' };
  } catch (error) {
    return { kind: 'unavailable', name, reason: `could not be read: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/**
 * In prompt order (VS Code lists references last-first), with every `#file:` typed as plain text that VS Code sent
 * no reference for (no completion was picked) resolved here from the workspace.
 */
export async function resolveReferences(references: readonly vscode.ChatPromptReference[], prompt: string): Promise<ResolvedReference[]> {
  const typed = typedFileMarkers(prompt, references.flatMap((ref) => (ref.range ? [ref.range] : [])));
  const all = [
    ...references.map((ref) => ({ start: ref.range?.[0] ?? Infinity, resolve: () => resolveOne(ref, prompt) })),
    ...typed.map((marker) => ({ start: marker.range[0], resolve: () => typedFile(marker.path) })),
  ];
  return Promise.all(all.sort((a, b) => a.start - b.start).map((item) => item.resolve()));
}
