/**
 * Some models put their reasoning inline as `<think>…</think>` in the text stream. This splitter routes
 * that span to thinking and the rest to text, across chunk boundaries (a tag may arrive split as `<thi`
 * + `nk>`). Text outside the tags passes through byte for byte.
 */

const OPEN = '<think>';
const CLOSE = '</think>';

export interface SplitPiece {
  kind: 'text' | 'thinking';
  text: string;
}

export class ThinkTagSplitter {
  private inThink = false;
  private held = '';

  push(chunk: string): SplitPiece[] {
    const pieces: SplitPiece[] = [];
    let input = this.held + chunk;
    this.held = '';
    while (input.length > 0) {
      const tag = this.inThink ? CLOSE : OPEN;
      const at = input.indexOf(tag);
      if (at >= 0) {
        this.emit(pieces, input.slice(0, at));
        input = input.slice(at + tag.length);
        this.inThink = !this.inThink;
        continue;
      }
      const keep = partialTagSuffix(input, tag);
      this.emit(pieces, input.slice(0, input.length - keep));
      this.held = input.slice(input.length - keep);
      break;
    }
    return pieces;
  }

  /** Whatever was held back waiting for a tag that never completed. */
  flush(): SplitPiece[] {
    const pieces: SplitPiece[] = [];
    this.emit(pieces, this.held);
    this.held = '';
    return pieces;
  }

  private emit(pieces: SplitPiece[], text: string): void {
    if (text) pieces.push({ kind: this.inThink ? 'thinking' : 'text', text });
  }
}

/** Length of the longest suffix of `text` that is a proper prefix of `tag`. */
function partialTagSuffix(text: string, tag: string): number {
  for (let n = Math.min(tag.length - 1, text.length); n > 0; n--) {
    if (text.endsWith(tag.slice(0, n))) return n;
  }
  return 0;
}
