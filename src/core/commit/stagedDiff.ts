/** A unified diff (`git diff --cached`) split into files and hunks, with each file's added and removed lines. */

export interface DiffHunk {
  /** The `@@ … @@` line and the hunk's lines. */
  text: string;
}

export interface DiffFile {
  path: string;
  /** The lines before the first hunk (`diff --git`, index, mode, `---`/`+++`, "Binary files differ"). */
  header: string;
  hunks: DiffHunk[];
  added: number;
  removed: number;
  binary: boolean;
}

export function parseDiff(diff: string): DiffFile[] {
  const files: DiffFile[] = [];
  let file: DiffFile | undefined;
  let hunk: string[] | undefined;
  const closeHunk = (): void => {
    if (file && hunk) file.hunks.push({ text: hunk.join('\n') });
    hunk = undefined;
  };
  for (const line of diff.split('\n')) {
    if (line.startsWith('diff --git ')) {
      closeHunk();
      file = { path: pathOf(line), header: line, hunks: [], added: 0, removed: 0, binary: false };
      files.push(file);
      continue;
    }
    if (!file) continue;
    if (line.startsWith('@@')) {
      closeHunk();
      hunk = [line];
      continue;
    }
    if (!hunk) {
      file.header += `\n${line}`;
      if (line.startsWith('Binary files ')) file.binary = true;
      if (line.startsWith('+++ b/')) file.path = line.slice(6);
      continue;
    }
    hunk.push(line);
    if (line.startsWith('+')) file.added++;
    else if (line.startsWith('-')) file.removed++;
  }
  closeHunk();
  return files;
}

/** `diff --git a/x b/y` → y (the path after the change). */
function pathOf(line: string): string {
  const at = line.lastIndexOf(' b/');
  return at >= 0 ? line.slice(at + 3) : line.slice('diff --git '.length);
}
