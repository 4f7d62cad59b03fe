/**
 * Model ids come from the endpoint: in the status bar tooltip (Markdown) and the status text (theme icons)
 * they are shown as the text they are, never as Markdown or an icon. Checked on the pure view and on the
 * status bar item (vscode double).
 */
import * as assert from 'assert';
import fc from 'fast-check';
import { labelText, markdownText, statusView } from '../core/report/statusText';
import { RequestLog } from '../core/report/requestLog';
import { SizeMemo } from '../core/trim/messageSize';
import { OpenCodeStatusBar } from '../vscode/statusBar';
import * as double from './support/vscodeDouble';
import { chat } from './support/engineHarness';
import { defaultSettings } from './support/trimHarness';
import { normalizeUsage } from '../core/routes/chat/chatChunk';
import { prepareRequest } from './support/prepareRequest';
import { ConversationStates } from '../core/trim/trimState';
import { MemoryLogger } from './support/memoryLogger';

const HOSTILE = ['a`b', '![x](https://evil.example/p.png)', '[click](command:opencode.setApiKey)', '$(zap) id', '<img src=x>', 'x|y', 'https://evil.example', 'www.evil.example', 'a\n# heading', '\\`', '**bold**'];
const PUNCT = /[!-/:-@[-`{-~]/;

/** What CommonMark shows for a text of backslash escapes and plain characters. */
const shown = (markdown: string): string => markdown.replace(/\\([!-/:-@[-`{-~])/g, '$1');

function recordFor(modelId: string) {
  const log = new RequestLog();
  const plan = prepareRequest({ purpose: 'conversation', modelId, messages: chat('hello'), tools: [] }, {
    settings: defaultSettings, limits: { contextWindow: 100_000 }, calibration: 1, memo: new SizeMemo(), states: new ConversationStates(), log: new MemoryLogger(),
  });
  log.add(modelId, plan, normalizeUsage({ prompt_tokens: 10, completion_tokens: 1 })!);
  return log;
}

describe('status bar: model ids are text, not Markdown or icons', () => {
  const idArb = fc.oneof(fc.constantFrom(...HOSTILE), fc.string({ unit: fc.constantFrom('`', '[', ']', '(', ')', '!', '$', '<', '>', '|', '\\', '*', '_', 'a', ' ', ':', '/', '.', '\n'), maxLength: 30 }));

  it('markdownText: every punctuation character escaped, and the text shown is the id (line breaks as spaces)', () => {
    fc.assert(fc.property(idArb, (id) => {
      const md = markdownText(id);
      assert.strictEqual(shown(md), id.replace(/[\r\n]+/g, ' '));
      assert.ok(!PUNCT.test(md.replace(/\\[!-/:-@[-`{-~]/g, '')), md);
    }));
  });

  it('the tooltip holds the id only escaped; the status text never lets the id form an icon', () => {
    fc.assert(fc.property(idArb, (id) => {
      const last = recordFor(id).latest()!;
      const view = statusView(last, undefined, defaultSettings.historyTrim);
      const header = view.tooltip.split('\n')[0];
      assert.strictEqual(header, `**OpenCode** · ${markdownText(id)}`);
      assert.ok(!/(^|[^\\])\$\(/.test(view.text), view.text);
      assert.strictEqual(labelText('$(zap)$(x)'), '\\$(zap)\\$(x)');
    }));
  });

  it('the status bar item: tooltip without theme icons, the id escaped', () => {
    const requests = recordFor('evil`$(zap)[x](https:e.example)');
    const settings = { current: defaultSettings } as never;
    const quota = { current: undefined } as never;
    const bar = new OpenCodeStatusBar(requests, settings, quota, async () => false);
    try {
      bar.update();
      const item = double.createdStatusItems[double.createdStatusItems.length - 1] as unknown as { text: string; tooltip: { value: string; supportThemeIcons: boolean }; accessibilityInformation: { label: string } };
      assert.strictEqual(item.tooltip.supportThemeIcons, false);
      assert.ok(item.tooltip.value.includes('evil\\`\\$\\(zap\\)\\[x\\]\\(https\\:e\\.example\\)'), item.tooltip.value);
      assert.ok(item.text.includes('\\$(zap)'), item.text);
      assert.ok(item.accessibilityInformation.label.includes('evil`$(zap)'), item.accessibilityInformation.label);
    } finally {
      bar.dispose();
    }
  });
});
