/**
 * An oversized message keeps what fits, truncation is a
 * function of the message alone, the WARN is written once, calibration learns only from what was sent and
 * ignores an odd sample, and the fake server counts a message the way a chat template does.
 */
import * as assert from 'assert';
import { accountUsage } from '../core/request/accountUsage';
import { SizeMemo } from '../core/trim/messageSize';
import { stableCut } from '../core/trim/truncateOversized';
import { estimateTextTokens } from '../core/tokens/estimate';
import type { WireMessage } from '../core/wire/wireTypes';
import { countTextTokens, countValueTokens, TOKENS_PER_IMAGE, TOOL_CALL_OVERHEAD_TOKENS } from '../cacheModel/valueTokens';
import { defaultSettings, filler } from './support/trimHarness';
import { normalizeUsage } from '../core/routes/chat/chatChunk';
import { planTrim } from '../core/trim/planTrim';
import { CALIBRATION, Calibrations, ConversationStates } from '../core/trim/trimState';
import { MemoryLogger } from './support/memoryLogger';

const BUDGET = 108_000;

function context(calibration = 1, states = new ConversationStates(), log = new MemoryLogger()) {
  return { settings: { ...defaultSettings, budgetOverrideTokens: BUDGET }, limits: { contextWindow: 128_000 }, calibration, memo: new SizeMemo(), states, log };
}

describe('oversized messages keep what fits', function () {
  this.timeout(60_000);

  for (const pasteTokens of [110_000, 115_000, 150_000, 400_000]) {
    it(`a ${pasteTokens.toLocaleString('en-US')}-token paste at a 108K budget keeps most of the budget, not ~400 tokens`, () => {
      const messages: WireMessage[] = [{ role: 'user', content: 'ANCHOR: review this' }, { role: 'assistant', content: 'ok' }, { role: 'user', content: `BEGIN ${filler(pasteTokens, 7)} END` }];
      const plan = planTrim(messages, [], context());
      const sent = plan.trim.messages.at(-1)?.content as string;
      assert.ok(sent.startsWith('BEGIN ') && sent.endsWith(' END'), 'both ends kept');
      assert.ok(!plan.trim.overCeiling && plan.trim.estTokens <= plan.geometry.ceiling, `~${plan.trim.estTokens} tokens sent`);
      // Whichever ceiling binds (here often the bytes: 512 KiB of English is ~83K tokens) is nearly filled.
      const filled = Math.max(plan.trim.estTokens / plan.geometry.ceiling, plan.trim.bytes / plan.budget.maxBytes);
      assert.ok(filled > 0.9, `kept only ~${plan.trim.estTokens} tokens / ${plan.trim.bytes} bytes`);
    });
  }

  it('the stable cut of a message depends on the message alone: same bytes whatever the calibration or budget', () => {
    const text = `output\n${filler(20_000, 3)}`;
    const cut = stableCut(text);
    assert.ok(cut && cut.length < text.length / 10);
    const big = (n: number): WireMessage[] => [
      { role: 'user', content: 'ANCHOR' },
      { role: 'user', content: 'go' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'run', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: text },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c2', type: 'function', function: { name: 'run', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'c2', content: filler(n, 4) },
    ];
    for (const [calibration, n] of [[0.9, 14_000], [1.3, 9_000], [1.7, 6_000]] as const) {
      const plan = planTrim(big(n), [], { ...context(calibration), settings: { ...defaultSettings, budgetOverrideTokens: 20_000 } });
      assert.strictEqual(plan.trim.messages[3].content, cut, `calibration ${calibration}`);
    }
  });

  it('writes the truncation WARN the first time only, not on every later request sending the same cut', () => {
    const log = new MemoryLogger();
    const states = new ConversationStates();
    const messages: WireMessage[] = [{ role: 'user', content: 'ANCHOR: review this' }, { role: 'user', content: `BEGIN ${filler(130_000, 9)} END` }];
    // The paste is the current prompt (always sent); the agent's tool rounds follow it.
    for (let turn = 0; turn < 4; turn++) {
      messages.push({ role: 'assistant', content: null, tool_calls: [{ id: `c${turn}`, type: 'function', function: { name: 'run', arguments: '{}' } }] }, { role: 'tool', tool_call_id: `c${turn}`, content: `done ${turn}` });
      const plan = planTrim([...messages], [], context(1, states, log));
      assert.ok(!plan.trim.overCeiling);
    }
    const warns = log.messages('warn').filter((m) => m.startsWith('[history-trim] Truncated'));
    assert.strictEqual(warns.length, 1, warns.join('\n'));
    assert.ok(log.messages('info').every((m) => !m.startsWith('[history-trim]') || / cut=(held|moved)$/.test(m)));
  });
});

describe('calibration learns from what was sent, in bounded steps', () => {
  it('after a truncated request the factor stays near the truth instead of falling to its floor', () => {
    const calibrations = new Calibrations();
    const states = new ConversationStates();
    const log = new MemoryLogger();
    const messages: WireMessage[] = [{ role: 'user', content: 'ANCHOR' }, { role: 'user', content: `BEGIN ${filler(400_000, 2)} END` }];
    const plan = planTrim(messages, [], { ...context(1, states, log) });
    // The endpoint counts what it received: the truncated text, at 1.1 × our estimate.
    const sentRaw = plan.trim.messages.reduce((sum, m) => sum + estimateTextTokens(typeof m.content === 'string' ? m.content : ''), 0);
    const usage = normalizeUsage({ prompt_tokens: Math.round(sentRaw * 1.1), completion_tokens: 10 });
    assert.ok(usage);
    accountUsage({ log, calibrations, states }, 'm', plan, usage);
    assert.ok(Math.abs(calibrations.factor('m') - 1.1) < 0.05, `factor ${calibrations.factor('m')}`);
  });

  it('one odd sample never moves an established factor far; a lasting change is followed in bounded steps', () => {
    const calibrations = new Calibrations();
    for (let i = 0; i < 5; i++) calibrations.observe('m', 100_000, 120_000);
    const settled = calibrations.factor('m');
    calibrations.observe('m', 100_000, 30_000);
    assert.strictEqual(calibrations.factor('m'), settled, 'an outlier is ignored');
    calibrations.observe('m', 100_000, 126_000);
    assert.ok(calibrations.factor('m') <= settled * (1 + CALIBRATION.maxStepRatio) + 1e-9, 'a normal sample moves at most one bounded step');
    for (let i = 0; i < 40; i++) calibrations.observe('m', 100_000, 250_000);
    assert.ok(calibrations.factor('m') > 2.3, `a lasting change is learned: ${calibrations.factor('m')}`);
  });
});

describe('fake server: token count like a chat template', () => {
  it('counts content and tool-call arguments, not JSON keys or escapes; images at a fixed price', () => {
    const content = 'say "hi" and print a\\b\n'.repeat(50);
    assert.strictEqual(countValueTokens({ role: 'user', content }), countTextTokens(content));
    const args = JSON.stringify({ path: 'src/a.ts', line: 4 });
    const call = { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'read_file', arguments: args } }] };
    assert.strictEqual(countValueTokens(call), TOOL_CALL_OVERHEAD_TOKENS + countTextTokens('read_file') + countTextTokens(args));
    const image = { role: 'user', content: [{ type: 'text', text: 'what?' }, { type: 'image_url', image_url: { url: `data:image/png;base64,${'A'.repeat(50_000)}` } }] };
    assert.strictEqual(countValueTokens(image), countTextTokens('what?') + TOKENS_PER_IMAGE);
    assert.ok(countValueTokens({ role: 'tool', tool_call_id: 'call_1', content }) < countTextTokens(JSON.stringify({ role: 'tool', tool_call_id: 'call_1', content })));
  });
});
