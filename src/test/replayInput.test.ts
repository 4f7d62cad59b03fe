/**
 * Bad input to the replay CLI. Every bad line is an error naming the line and the field;
 * every bad flag a clear error and exit code 2; random lines never produce an uncaught TypeError.
 */
import * as assert from 'assert';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import fc from 'fast-check';
import { resolveSettings } from '../core/config/settings';
import { flagNumber, parseReplayArgs, UsageError } from '../replay/replayArgs';
import { parseReplayLines } from '../core/replay/replayFile';
import { replaySession } from '../replay/replaySession';
import { runs } from './support/propertyRuns';

const REPLAY = path.join(__dirname, '..', 'tools', 'replay.js');
const GOOD = '{"messages":[{"role":"system","content":"sys"},{"role":"user","content":"hi"}]}';

describe('replay tool: bad input', function () {
  this.timeout(30_000);
  let dir: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'replay-input-'));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  const replay = (lines: string[], flags: string[] = []) => {
    const file = path.join(dir, `s${Math.random().toString(36).slice(2)}.jsonl`);
    fs.writeFileSync(file, `${lines.join('\n')}\n`);
    return spawnSync(process.execPath, [REPLAY, file, ...flags], { encoding: 'utf8' });
  };

  it('replay-bad-lines: each malformed line is an error naming the line and the field, exit 1, no TypeError', () => {
    const cases: [string, RegExp][] = [
      ['{"append":[null]}', /line 2: append\[0\]: expected a message object, got null/],
      ['{"append":[{"role":"user"}]}', /line 2: append\[0\]\.content: expected a string or an array of parts, got undefined/],
      ['{"append":[{"role":"user","content":5}]}', /line 2: append\[0\]\.content: expected a string or an array of parts, got number 5/],
      ['{"append":[{"role":"assistant","content":null,"tool_calls":[{"id":"c1"}]}]}', /line 2: append\[0\]\.tool_calls\[0\]\.function: expected an object/],
      ['{"messages":[{"role":"user","content":"x"}],"tools":[{"type":"function"}]}', /line 2: tools\[0\]\.function: expected an object/],
      ['{"messages":[{"role":"robot","content":"x"}]}', /line 2: messages\[0\]\.role: expected/],
      ['{"messages":[]}', /line 2: messages: expected at least one message/],
      ['[1,2]', /line 2: expected an object/],
    ];
    for (const [line, expected] of cases) assert.throws(() => parseReplayLines([GOOD, line]), (e: Error) => !(e instanceof TypeError) && expected.test(e.message), line);
    // The CLI prints the same message and exits 1 (a few cases end to end; each run starts a process).
    for (const [line, expected] of cases.slice(0, 4)) {
      const run = replay([GOOD, line]);
      assert.strictEqual(run.status, 1, `${line}: ${run.stderr}`);
      assert.match(run.stderr, expected, line);
      assert.doesNotMatch(run.stderr, /TypeError|at .*\.js:\d+/, line);
    }
  });

  it('replay-bad-flags: abc, -5, Infinity, NaN and 1e999 are refused with the flag named and exit code 2', () => {
    const bad = [['context-window', 'abc'], ['max-output', '-5'], ['context-window', 'Infinity'], ['reserved', 'NaN'], ['cut-step', '1e999'], ['headroom-ratio', '-0.1'], ['max-input', '12.5']];
    for (const [flag, value] of bad) assert.throws(() => parseReplayArgs(['f.jsonl', `--${flag}=${value}`]), (e: Error) => e instanceof UsageError && e.message.startsWith(`--${flag} "${value}" is not`));
    for (const [flag, value] of bad.slice(0, 3)) {
      const run = replay([GOOD], [`--${flag}=${value}`]);
      assert.strictEqual(run.status, 2, `--${flag}=${value}: ${run.stderr}`);
      assert.ok(run.stderr.includes(`--${flag} "${value}" is not`), run.stderr);
      assert.strictEqual(run.stdout, '');
    }
    const separate = replay([GOOD], ['--max-output', '-5']);
    assert.strictEqual(separate.status, 2, separate.stderr);
    assert.deepStrictEqual(parseReplayArgs(['f.jsonl', '--headroom-ratio', '0.05', '--context-window', '64000']), {
      help: false,
      args: { file: 'f.jsonl', json: false, settingValues: { 'historyTrim.headroomRatio': 0.05 }, contextWindow: 64_000, api: undefined },
    });
  });

  it('a NaN setting warning reads NaN, not null', () => {
    const warnings: string[] = [];
    resolveSettings((key) => (key === 'reservedOutputTokens' ? Number.NaN : undefined), (w) => warnings.push(w));
    assert.deepStrictEqual(warnings, ['opencode.reservedOutputTokens NaN is not a number; using 20000.']);
  });

  it('replay-args-property: any flag value is either a plain non-negative number or a UsageError', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.double().map(String), fc.integer().map(String)), (raw) => {
        try {
          const value = flagNumber('x', raw, false);
          assert.ok(Number.isFinite(value) && value >= 0);
        } catch (error) {
          assert.ok(error instanceof UsageError, String(error));
        }
        try {
          parseReplayArgs(['f.jsonl', `--context-window=${raw}`]);
        } catch (error) {
          assert.ok(error instanceof UsageError, String(error));
        }
      }),
    );
  });

  it('replay-fuzz-lines: random and near-valid lines are parsed or refused with a line number, never a TypeError', () => {
    const text = fc.oneof(fc.string(), fc.constant(null), fc.integer(), fc.array(fc.record({ type: fc.constantFrom('text', 'image_url', 'x'), text: fc.anything() }, { requiredKeys: [] })));
    const call = fc.record({ id: fc.oneof(fc.string(), fc.integer()), type: fc.constant('function'), function: fc.oneof(fc.constant(undefined), fc.record({ name: fc.oneof(fc.string(), fc.constant(null)), arguments: fc.oneof(fc.string(), fc.constant({})) })) }, { requiredKeys: [] });
    const message = fc.oneof(
      fc.constant(null),
      fc.jsonValue(),
      fc.record({ role: fc.constantFrom('system', 'user', 'assistant', 'tool', 'bogus'), content: text, tool_calls: fc.oneof(fc.array(call), fc.constant({})), tool_call_id: fc.oneof(fc.string(), fc.integer()) }, { requiredKeys: ['role'] }),
    );
    const tool = fc.oneof(fc.jsonValue(), fc.record({ type: fc.constant('function'), function: fc.record({ name: fc.oneof(fc.string(), fc.integer()), description: fc.anything(), parameters: fc.anything() }, { requiredKeys: [] }) }, { requiredKeys: [] }));
    const line = fc.oneof(
      fc.string(),
      fc.jsonValue().map((v) => JSON.stringify(v)),
      fc.record({ messages: fc.array(message, { maxLength: 6 }), tools: fc.array(tool, { maxLength: 2 }) }, { requiredKeys: ['messages'] }).map((v) => JSON.stringify(v)),
      fc.record({ append: fc.array(message, { maxLength: 4 }) }).map((v) => JSON.stringify(v)),
    );
    const settings = resolveSettings(() => undefined, () => undefined);
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 5 }), (lines) => {
        let requests;
        try {
          requests = parseReplayLines([GOOD, ...lines]);
        } catch (error) {
          assert.ok(!(error instanceof TypeError), String(error));
          assert.match((error as Error).message, /^line \d+: /);
          return;
        }
        replaySession(requests, { settings, limits: { contextWindow: 8_000 } });
      }),
      { numRuns: runs(300) },
    );
  });
});
