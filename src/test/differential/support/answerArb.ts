/**
 * A random valid answer, route-neutral: blocks in arrival order (signed thinking, text, tool calls with JSON
 * arguments split into fragments), the finish, and the pieces the bytes are served in. Each route's wire
 * module turns it into that route's frames; the SDK and the extension then read the same bytes.
 */
import fc from 'fast-check';

export interface ThinkingBlock { kind: 'thinking'; pieces: string[]; signature: string }
export interface TextBlock { kind: 'text'; pieces: string[] }
export interface CallBlock { kind: 'call'; id: string; name: string; args: Record<string, unknown>; fragments: string[] }
export type Block = ThinkingBlock | TextBlock | CallBlock;

export interface Answer {
  /** Thinking first (every route sends it before the answer), then text, then the parallel calls. */
  blocks: Block[];
  /** 'length' = the output limit; 'stop' otherwise (with calls: the route's tool-call reason). */
  finish: 'stop' | 'length';
  /** Index into the route's usage shapes; -1 = the stream carries no usage. */
  usageShape: number;
  counts: { prompt: number; cached: number; cacheWrite: number; output: number; thoughts: number };
}

/** Text of any unicode that no route treats as markup (`<think>` is the chat route's tag, docs/routes.md). */
const piece = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 24 }).filter((s) => !/<\/?think>/i.test(s));
const pieces = fc.array(piece, { minLength: 1, maxLength: 5 });

/** Splits `text` at random code-unit offsets (JSON fragments may cut anywhere, even inside an escape). */
function fragmentsArb(text: string): fc.Arbitrary<string[]> {
  return fc.uniqueArray(fc.integer({ min: 1, max: Math.max(1, text.length - 1) }), { maxLength: 4 }).map((cuts) => {
    const points = [0, ...cuts.filter((c) => c < text.length).sort((a, b) => a - b), text.length];
    return points.slice(1).map((end, i) => text.slice(points[i], end)).filter((f) => f.length > 0);
  });
}

const argsArb = fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }) as fc.Arbitrary<Record<string, unknown>>;

function callArb(i: number): fc.Arbitrary<CallBlock> {
  return fc
    .record({ suffix: fc.stringMatching(/^[A-Za-z0-9]{4,12}$/), name: fc.constantFrom('read_file', 'grep', 'run_tests', 'list_dir'), args: argsArb })
    .chain(({ suffix, name, args }) => fragmentsArb(JSON.stringify(args)).map((fragments): CallBlock => ({ kind: 'call', id: `call_${i}_${suffix}`, name, args, fragments })));
}

/** `usageShapes`: how many usage shapes the route has; `noUsage`: whether a stream without usage is valid on it. */
export function answerArb(usageShapes: number, noUsage = true): fc.Arbitrary<Answer> {
  const thinking = fc.record({ pieces, signature: fc.stringMatching(/^[A-Za-z0-9+/]{8,40}$/) }).map((t): ThinkingBlock => ({ kind: 'thinking', ...t }));
  return fc
    .record({
      thinking: fc.option(thinking, { nil: undefined }),
      text: fc.option(pieces.map((p): TextBlock => ({ kind: 'text', pieces: p })), { nil: undefined }),
      callCount: fc.integer({ min: 0, max: 3 }),
      finish: fc.constantFrom<'stop' | 'length'>('stop', 'stop', 'length'),
      usageShape: fc.integer({ min: noUsage ? -1 : 0, max: usageShapes - 1 }),
      prompt: fc.integer({ min: 1, max: 100_000 }), // under the 200K test window: no overflow WARN
      cachedShare: fc.double({ min: 0, max: 1, noNaN: true }),
      cacheWrite: fc.integer({ min: 0, max: 5_000 }),
      output: fc.integer({ min: 1, max: 30_000 }),
      thoughts: fc.integer({ min: 0, max: 5_000 }),
    })
    .chain((a) =>
      fc.tuple(...Array.from({ length: a.callCount }, (_, i) => callArb(i))).map((calls): Answer => {
        const blocks: Block[] = [...(a.thinking ? [a.thinking] : []), ...(a.text ? [a.text] : []), ...calls];
        // Something is always said: an answer with no text and no call is the "empty answer" error, tested apart.
        if (!a.text && calls.length === 0) blocks.push({ kind: 'text', pieces: ['ok'] });
        const cached = Math.floor(a.prompt * a.cachedShare);
        return { blocks, finish: calls.length ? 'stop' : a.finish, usageShape: a.usageShape, counts: { prompt: a.prompt, cached, cacheWrite: a.cacheWrite, output: a.output, thoughts: a.thoughts } };
      }),
    );
}

export const textBlocks = (a: Answer): TextBlock[] => a.blocks.filter((b): b is TextBlock => b.kind === 'text');
export const thinkingBlocks = (a: Answer): ThinkingBlock[] => a.blocks.filter((b): b is ThinkingBlock => b.kind === 'thinking');
export const callBlocks = (a: Answer): CallBlock[] => a.blocks.filter((b): b is CallBlock => b.kind === 'call');

/** Random byte offsets where the server cuts its writes (sorted, unique, inside the body). */
export function cutsArb(byteLength: number): fc.Arbitrary<number[]> {
  return fc.uniqueArray(fc.integer({ min: 1, max: Math.max(1, byteLength - 1) }), { maxLength: 24 }).map((c) => c.sort((x, y) => x - y));
}
