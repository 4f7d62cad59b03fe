/**
 * Some models put their reasoning inline as `<think>…</think>` in the text stream. Only a think block that
 * opens the answer (after nothing but whitespace) is reasoning: this splitter routes that span to thinking
 * and everything else to text, across chunk boundaries (a tag may arrive split as `<thi` + `nk>`). A `<think>`
 * later in the answer (code that mentions the tag, an explanation of it) is text (docs/issues/010). Text
 * outside the block passes through byte for byte.
 */

const OPEN = '<think>';
const CLOSE = '</think>';

export interface SplitPiece {
  kind: 'text' | 'thinking';
  text: string;
}

/** start: only whitespace so far, a block may still open; thinking: inside the opening block; text: the rest. */
type Phase = 'start' | 'thinking' | 'text';

export class ThinkTagSplitter {
  private phase: Phase = 'start';
  private held = '';

  push(chunk: string): SplitPiece[] {
    const pieces: SplitPiece[] = [];
    let input = this.held + chunk;
    this.held = '';
    if (this.phase === 'start') input = this.leaveStart(input, pieces);
    if (this.phase === 'thinking') input = this.readThinking(input, pieces);
    if (this.phase === 'text') emit(pieces, 'text', input);
    return pieces;
  }

  /** Whatever was held back waiting for a tag that never completed. */
  flush(): SplitPiece[] {
    const pieces: SplitPiece[] = [];
    emit(pieces, this.phase === 'thinking' ? 'thinking' : 'text', this.held);
    this.held = '';
    return pieces;
  }

  /** Decides whether the answer opens with a think block; holds the input while it cannot tell yet. */
  private leaveStart(input: string, pieces: SplitPiece[]): string {
    const body = input.trimStart();
    const whitespace = input.slice(0, input.length - body.length);
    if (body.startsWith(OPEN)) {
      emit(pieces, 'text', whitespace);
      this.phase = 'thinking';
      return body.slice(OPEN.length);
    }
    if (OPEN.startsWith(body)) {
      this.held = input; // only whitespace, or the beginning of `<think>`
      return '';
    }
    this.phase = 'text';
    return input;
  }

  private readThinking(input: string, pieces: SplitPiece[]): string {
    const at = input.indexOf(CLOSE);
    if (at >= 0) {
      emit(pieces, 'thinking', input.slice(0, at));
      this.phase = 'text';
      return input.slice(at + CLOSE.length);
    }
    const keep = partialTagSuffix(input, CLOSE);
    emit(pieces, 'thinking', input.slice(0, input.length - keep));
    this.held = input.slice(input.length - keep);
    return '';
  }
}

function emit(pieces: SplitPiece[], kind: SplitPiece['kind'], text: string): void {
  if (text) pieces.push({ kind, text });
}

/** Length of the longest suffix of `text` that is a proper prefix of `tag`. */
function partialTagSuffix(text: string, tag: string): number {
  for (let n = Math.min(tag.length - 1, text.length); n > 0; n--) {
    if (text.endsWith(tag.slice(0, n))) return n;
  }
  return 0;
}
