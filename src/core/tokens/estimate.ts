/**
 * A fast o200k token estimate for the history trimmer, which re-measures whole histories (MBs) per request.
 *
 * How: o200k first splits text into "pre-tokens" with a regex (a word with at most one leading space or
 * symbol, camelCase humps apart, digits in groups of three, a run of symbols, a run of whitespace), then
 * BPE-merges inside each pre-token. Almost every pre-token of ordinary text becomes exactly one token, so
 * this file counts pre-tokens in one pass over the char codes (no allocation, no regex), then adds what BPE
 * adds on top: long words, long symbol runs, long whitespace runs, and per-character costs for scripts the
 * vocabulary covers thinly. Calibrated against gpt-tokenizer's o200k on the fixture kinds and on real files
 * (TypeScript/Python sources, package.json, Markdown, Chinese/Japanese/Russian/German text): within about
 * ±7% on all of them. Known weak spots, both under-counted: random strings such as hashes and base64
 * (15–30%) and traditional Chinese (~13%).
 *
 * The loop is deliberately one function with inline fast paths: it runs over megabytes per request, and
 * most of its time goes to the first calls, before V8 optimizes it, where every extra call and bytecode shows.
 */

// Character classes. Numbers, not an enum, so the hot loop compares small integers; the order matters:
// word letters are 1–4, letters including CJK 1–5, whitespace 7–9.
const NONE = 0;
const LOWER = 1;
const UPPER = 2;
/** Accented Latin (é, ß, Vietnamese): letters, but o200k often splits words at them. */
const LATIN_EXTENDED = 3;
/** Greek, Cyrillic, Arabic, Hebrew, Indic, Thai…: letters with their own merges. */
const OTHER_LETTER = 4;
/** Chinese ideographs, kana, hangul: a per-character cost, since words are not space-separated. */
const CJK = 5;
const DIGIT = 6;
const SPACE = 7;
const TAB = 8;
const NEWLINE = 9;
const PUNCT = 10;
/** CJK punctuation, fullwidth forms, curly quotes and dashes: about one token each. */
const WIDE_PUNCT = 11;
/** Arrows, math, box drawing, other symbols: one token each unless repeated. */
const SYMBOL = 12;
/** Half of an astral code point (emoji and rarer CJK). */
const SURROGATE = 13;

/** Tokens per CJK character: 0.62 on modern Chinese prose (common two-character words are one token). */
const CJK_TOKENS_PER_CHAR = 0.62;
/** Emoji cost 1–3 tokens; an astral code point is two UTF-16 units. */
const SURROGATE_TOKENS_PER_UNIT = 0.8;
const LATIN_EXTENDED_EXTRA_TOKENS = 0.3;
const OTHER_LETTER_EXTRA_TOKENS = 0.05;
/** Words up to this length are usually one token (the vocabulary holds most words and identifier humps). */
const WORD_CHARS_FREE = 7;
/** Beyond that, rarer long words split into pieces of about this many characters. */
const LONG_WORD_CHARS_PER_TOKEN = 2;
/** Symbol runs up to this length are usually one token ("});", "\":\"", "=>{"). */
const PUNCT_CHARS_FREE = 3;
const LONG_PUNCT_CHARS_PER_TOKEN = 2;
/** Runs of one repeated character ("=====", "────") merge into long tokens. */
const REPEATED_CHAR_TOKENS = 1 / 16;
const REPEATED_SYMBOL_TOKENS = 1 / 4;
const NEWLINES_PER_TOKEN = 16;
const SPACES_PER_TOKEN = 100;

const ASCII_CLASSES = buildAsciiClasses();

function buildAsciiClasses(): Uint8Array {
  const classes = new Uint8Array(128).fill(PUNCT);
  for (let c = 0; c < 32; c++) classes[c] = SPACE;
  for (let c = 97; c <= 122; c++) classes[c] = LOWER;
  for (let c = 65; c <= 90; c++) classes[c] = UPPER;
  for (let c = 48; c <= 57; c++) classes[c] = DIGIT;
  classes[32] = SPACE;
  classes[9] = TAB;
  classes[10] = NEWLINE;
  classes[13] = NEWLINE;
  return classes;
}

function classOfNonAscii(c: number): number {
  if (c <= 0x36f) return c === 0xa0 ? SPACE : LATIN_EXTENDED;
  if (c < 0x1e00) return OTHER_LETTER;
  if (c < 0x2000) return LATIN_EXTENDED;
  if (c < 0x2070) return WIDE_PUNCT;
  if (c < 0x3000) return SYMBOL;
  if (c < 0x3040) return WIDE_PUNCT;
  if (c < 0x3100) return CJK;
  if (c >= 0x3400 && c < 0xa000) return CJK;
  if (c >= 0xac00 && c < 0xd800) return CJK;
  if (c < 0xe000 && c >= 0xd800) return SURROGATE;
  if (c >= 0xf900 && c < 0xfb00) return CJK;
  if (c >= 0xff00 && c < 0xfff0) return WIDE_PUNCT;
  return SYMBOL;
}

/** Filled by estimateTextTokens when given: what the same pass saw of the text's JSON form. */
export interface TextScan {
  /**
   * Bytes JSON escaping adds to the text's UTF-8 length (Buffer.byteLength): 1 per quote, backslash, \n, \r, \t,
   * \b, \f; 5 per other control character (\u00XX); 3 per lone surrogate (\udXXX instead of U+FFFD's 3 bytes).
   * The trim's byte count then needs no JSON.stringify of megabytes (messageSize.ts).
   */
  jsonEscapeBytes: number;
}

/** Estimated o200k token count of `text`. Linear, allocation-free, about 10 ns per character once warm. */
export function estimateTextTokens(text: string, scan?: TextScan): number {
  let tokens = 0;
  let escapeBytes = 0; // only the rare branches (symbols, control characters, surrogates) add to it
  let prev = NONE;
  let prevCode = -1;
  let runLength = 0; // length of the current word piece or symbol run
  let punctAfterSpace = false; // a symbol run that took the single space before it (" {", " \"")
  let newlineInRun = false; // whitespace run holds a newline that is a pre-token of its own
  let newlinesInRun = 0;
  let spacesAfterNewline = 0; // spaces/tabs at the end of the whitespace run
  let lastWhitespace = NONE;

  const length = text.length;
  for (let i = 0; i <= length; i++) {
    let c = i < length ? text.charCodeAt(i) : -1;
    let k = c < 0 ? NONE : c < 128 ? ASCII_CLASSES[c] : classOfNonAscii(c);

    if (prev >= SPACE && prev <= NEWLINE && (k < SPACE || k > NEWLINE)) {
      if (newlineInRun) tokens += 1 + Math.floor(newlinesInRun / NEWLINES_PER_TOKEN);
      // All but the last space form one token; the last one joins whatever follows, except digits (and a
      // tab rarely merges with anything).
      if (spacesAfterNewline >= 2) tokens += 1 + Math.floor(spacesAfterNewline / SPACES_PER_TOKEN);
      const lastSpaceJoinsNext = lastWhitespace === SPACE && k !== DIGIT && k !== NONE;
      if (spacesAfterNewline >= 1 && !lastSpaceJoinsNext) tokens += 1;
    }
    if (prev === PUNCT && k !== PUNCT) {
      // One symbol directly before a word joins it (".name", "\"key", "_id"), unless a space took it first.
      const joinsWord = runLength === 1 && !punctAfterSpace && k >= LOWER && k <= CJK;
      if (!joinsWord) tokens += 1;
    }
    if (k === NONE) break;

    let pieceCounted = false;
    if (k === SPACE && c === 32 && (prev < SPACE || prev > NEWLINE) && i + 1 < length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 97 && next <= 122) {
        // " word", the most common pre-token of all: one token, the space included.
        tokens += 1;
        runLength = 0;
        pieceCounted = true;
        i++;
        c = next;
        k = LOWER;
      }
    }

    if (k <= OTHER_LETTER) {
      const startsPiece = prev < LOWER || prev > OTHER_LETTER || (k === UPPER && prev === LOWER);
      if (startsPiece && !pieceCounted) {
        tokens += 1;
        runLength = 0;
      }
      if (k === LATIN_EXTENDED) tokens += LATIN_EXTENDED_EXTRA_TOKENS;
      else if (k === OTHER_LETTER) tokens += OTHER_LETTER_EXTRA_TOKENS;
      // Fast path, the bulk of any text: the lowercase letters that follow, then more " word"s.
      let end = i + 1;
      while (end < length) {
        const next = text.charCodeAt(end);
        if (next < 97 || next > 122) break;
        end++;
      }
      const lengthBefore = runLength;
      runLength += end - i;
      if (runLength > WORD_CHARS_FREE) {
        tokens += (runLength - Math.max(lengthBefore, WORD_CHARS_FREE)) / LONG_WORD_CHARS_PER_TOKEN;
      }
      while (end + 1 < length && text.charCodeAt(end) === 32) {
        const wordStart = end + 1;
        let wordEnd = wordStart;
        while (wordEnd < length) {
          const next = text.charCodeAt(wordEnd);
          if (next < 97 || next > 122) break;
          wordEnd++;
        }
        if (wordEnd === wordStart) break;
        runLength = wordEnd - wordStart;
        tokens += runLength > WORD_CHARS_FREE ? 1 + (runLength - WORD_CHARS_FREE) / LONG_WORD_CHARS_PER_TOKEN : 1;
        end = wordEnd;
      }
      if (end > i + 1) {
        i = end - 1;
        c = text.charCodeAt(i);
        k = LOWER;
      }
    } else if (k === SPACE || k === TAB) {
      if (c < 32) escapeBytes += c === 9 || c === 8 || c === 12 ? 1 : 5;
      if (prev < SPACE || prev > NEWLINE) {
        newlineInRun = false;
        newlinesInRun = 0;
        spacesAfterNewline = 0;
      }
      // Fast path: indentation.
      let end = i + 1;
      while (end < length && text.charCodeAt(end) === 32) end++;
      spacesAfterNewline += end - i;
      if (end > i + 1) {
        i = end - 1;
        c = 32;
        k = SPACE;
      }
      lastWhitespace = k;
    } else if (k === PUNCT) {
      punctAfterSpace = prev === SPACE;
      if (c === 34 || c === 92) escapeBytes++;
      let end = i + 1;
      while (end < length) {
        const next = text.charCodeAt(end);
        if (next >= 128 || ASCII_CLASSES[next] !== PUNCT) break;
        if (next === 34 || next === 92) escapeBytes++;
        if (end - i >= PUNCT_CHARS_FREE) {
          tokens += next === text.charCodeAt(end - 1) ? REPEATED_CHAR_TOKENS : 1 / LONG_PUNCT_CHARS_PER_TOKEN;
        }
        end++;
      }
      runLength = end - i;
      i = end - 1;
      c = text.charCodeAt(i);
    } else if (k === NEWLINE) {
      escapeBytes++;
      if (prev === PUNCT) {
        // Newlines right after symbols belong to the symbol run's pre-token (";\n", "{\n", "},\n\n").
        newlineInRun = false;
        newlinesInRun = 0;
        spacesAfterNewline = 0;
      } else if (prev !== NEWLINE || newlineInRun) {
        if (prev < SPACE || prev > NEWLINE) newlinesInRun = 0;
        newlineInRun = true;
        newlinesInRun++;
        spacesAfterNewline = 0; // spaces before a newline are part of the newline's pre-token
      }
      lastWhitespace = NEWLINE;
    } else if (k === DIGIT) {
      const end = runEnd(text, i, 48, 57);
      tokens += Math.ceil((end - i) / 3); // o200k splits numbers into groups of up to three digits
      i = end - 1;
      c = text.charCodeAt(i);
    } else if (k === CJK) {
      // Fast path: a run of common ideographs.
      const end = runEnd(text, i, 0x4e00, 0x9fff);
      tokens += (end - i) * CJK_TOKENS_PER_CHAR;
      i = end - 1;
      c = text.charCodeAt(i);
    } else if (k === WIDE_PUNCT) {
      tokens += 1;
    } else if (k === SYMBOL) {
      tokens += c === prevCode ? REPEATED_SYMBOL_TOKENS : 1;
    } else {
      tokens += SURROGATE_TOKENS_PER_UNIT;
      if (c < 0xdc00 ? !isLowSurrogate(i + 1 < length ? text.charCodeAt(i + 1) : -1) : !(prevCode >= 0xd800 && prevCode < 0xdc00)) escapeBytes += 3;
    }
    prev = k;
    prevCode = c;
  }
  if (scan) scan.jsonEscapeBytes = escapeBytes;
  return Math.round(tokens);
}

/** Where the run of characters in [low, high] that starts at `start` ends (exclusive). */
function runEnd(text: string, start: number, low: number, high: number): number {
  let end = start + 1;
  while (end < text.length) {
    const next = text.charCodeAt(end);
    if (next < low || next > high) break;
    end++;
  }
  return end;
}

function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c < 0xe000;
}

// Run the loop once at load over a line that reaches every branch. V8 then optimizes it with type feedback
// for all of them; otherwise the first history that contains, say, Chinese after pages of English
// deoptimizes it mid-run, which roughly doubled the cold time of a 2.7 MB history in our measurements.
const LINE_WITH_EVERY_CHARACTER_CLASS =
  'Hello World, fooBar(1234567); x = {"a": [1, 2]};\n\t  if (a) {\n    return "ok";\n  }\r\n' +
  '中文，测试。 Café ☺ \u{1F600} Привет ──── ==== \n\n\n';
estimateTextTokens(LINE_WITH_EVERY_CHARACTER_CLASS, { jsonEscapeBytes: 0 });
