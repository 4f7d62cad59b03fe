/**
 * Saved-state write cost per answer (issue 29 item 1): a full native replay memory (8M characters of layouts with
 * encrypted reasoning) and a full reasoning memory, then answers that each remember one more layout and reasoning
 * (evicting the oldest). "before": what the engine did after every answer — both memories serialized whole on the
 * host thread (each `store.update` of a Memento serializes its value). "after": the StateWriter's writes for the
 * same answer — only the chunks that answer changed, serialized when the debounced write runs. Timed: the
 * serialization (JSON.stringify of every value written), which is what the host thread pays.
 */
import { performance } from 'perf_hooks';
import { NATIVE_REPLAY_BOUNDS, NativeReplayMemory, type AssistantLayout } from '../../core/answer/nativeReplay';
import { loadChunked } from '../../core/state/chunkedMap';
import { PersistedStore, type KeyValueStore } from '../../core/state/persisted';
import { StateWriter } from '../../core/state/stateWriter';
import { ReasoningMemory } from '../../core/convert/convertRequest';

export interface StateWriteFigures {
  label: string;
  /** Characters serialized per answer (median). */
  chars: number;
  /** Store keys written per answer (median). */
  keys: number;
  /** Serialization time per answer, ms. */
  p50Ms: number;
  p95Ms: number;
}

export interface StateWriteResult {
  memoryChars: { nativeReplay: number; reasoning: number };
  answers: number;
  before: StateWriteFigures;
  after: StateWriteFigures;
}

const LAYOUT_CHARS = 60_000;
const REASONING_CHARS = 30_000;

/** A Memento-like store that serializes what it is given (as VS Code's does) and records what that cost. */
class MeasuringStore implements KeyValueStore {
  readonly values = new Map<string, string>();
  chars = 0;
  keys = 0;
  ms = 0;
  get(key: string): unknown {
    const text = this.values.get(key);
    return text === undefined ? undefined : JSON.parse(text);
  }
  update(key: string, value: unknown): void {
    const started = performance.now();
    const text = value === undefined ? undefined : JSON.stringify(value);
    this.ms += performance.now() - started;
    this.keys++;
    this.chars += text?.length ?? 0;
    if (text === undefined) this.values.delete(key);
    else this.values.set(key, text);
  }
  reset(): void {
    this.chars = this.keys = this.ms = 0;
  }
}

const layoutOf = (n: number): AssistantLayout => ({ route: 'responses', slots: [{ kind: 'native', item: { type: 'reasoning', id: `rs_${n}`, encrypted_content: `${n}:`.padEnd(LAYOUT_CHARS, 'x') } }, { kind: 'call', callId: `call_${n}` }] });
const reasoningText = (n: number): string => `${n}:`.padEnd(REASONING_CHARS, 'thinking ');

function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
}

function figures(label: string, samples: { chars: number; keys: number; ms: number }[]): StateWriteFigures {
  const ms = samples.map((s) => s.ms).sort((a, b) => a - b);
  const chars = samples.map((s) => s.chars).sort((a, b) => a - b);
  const keys = samples.map((s) => s.keys).sort((a, b) => a - b);
  return { label, chars: quantile(chars, 0.5), keys: quantile(keys, 0.5), p50Ms: quantile(ms, 0.5), p95Ms: quantile(ms, 0.95) };
}

export async function measureStateWrites(answers = 40): Promise<StateWriteResult> {
  const store = new MeasuringStore();
  const persisted = new PersistedStore(store);
  const writer = new StateWriter(persisted, 60_000);
  const native = new NativeReplayMemory();
  const reasoning = new ReasoningMemory();
  const nativeMap = loadChunked(persisted, 'opencode.nativeReplay', native, () => undefined, NATIVE_REPLAY_BOUNDS.maxEntries);
  const reasoningMap = loadChunked(persisted, 'opencode.reasoning', reasoning, () => undefined, 20_000);
  writer.chunkedChanged(nativeMap, native);
  writer.chunkedChanged(reasoningMap, reasoning);
  let n = 0;
  const answer = (): void => {
    native.remember(layoutOf(n));
    reasoning.remember([`call_${n}`], reasoningText(n));
    n++;
  };
  // Fill both memories to their bounds (and past: the oldest are evicted from here on).
  while (native.chars < NATIVE_REPLAY_BOUNDS.maxChars - LAYOUT_CHARS || n < 300) answer();
  await writer.flush();
  const before: { chars: number; keys: number; ms: number }[] = [];
  const after: { chars: number; keys: number; ms: number }[] = [];
  for (let i = 0; i < answers; i++) {
    answer();
    store.reset();
    await writer.flush();
    after.push({ chars: store.chars, keys: store.keys, ms: store.ms });
    // The old path: both memories whole, after every answer.
    const whole = new MeasuringStore();
    whole.update('opencode.nativeReplay', native.toJSON());
    whole.update('opencode.reasoning', reasoning.toJSON());
    before.push({ chars: whole.chars, keys: whole.keys, ms: whole.ms });
  }
  return {
    memoryChars: { nativeReplay: native.chars, reasoning: JSON.stringify(reasoning.toJSON()).length },
    answers,
    before: figures('before: both memories whole, every answer', before),
    after: figures('after: the changed chunks only (StateWriter)', after),
  };
}

const ms = (x: number): string => x.toFixed(2);
const kchars = (x: number): string => `${Math.round(x / 1000).toLocaleString('en-US')}K`;

export function stateWritesMarkdown(result: StateWriteResult): string {
  const row = (f: StateWriteFigures): string => `| ${f.label} | ${f.keys} | ${kchars(f.chars)} | ${ms(f.p50Ms)} | ${ms(f.p95Ms)} |`;
  return [
    '## Saved-state write cost per answer',
    '',
    `Both large memories full: native replay ${kchars(result.memoryChars.nativeReplay)} characters of layouts, reasoning`,
    `${kchars(result.memoryChars.reasoning)} characters; ${result.answers} answers, each remembering one layout and one reasoning (the oldest`,
    'evicted). Serialization time per answer (what the host thread pays for `globalState.update`), src/bench/state/stateWrites.ts.',
    '',
    '| writes | keys | characters | p50 ms | p95 ms |',
    '|---|---|---|---|---|',
    row(result.before),
    row(result.after),
    '',
  ].join('\n');
}
