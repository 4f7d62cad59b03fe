import * as assert from 'assert';
import { parseModelList } from '../core/models/parseModelList';
import { conversationSessionId } from '../core/session/sessionId';

describe('model list', () => {
  it('reads only the endpoint\'s own fields (the model table adds what data knows), else leaves them unknown', () => {
    const models = parseModelList({
      data: [
        { id: 'zz-local', context_length: 32_768, max_output_tokens: 4_096, capabilities: { tool_calling: false, image_input: true } },
        { id: 'kimi-k2-0905' },
        { id: 'mystery-model' },
        { id: 'vllm', max_model_len: '65536' },
        { id: 'kimi-k2-0905' },
      ],
    });
    assert.deepStrictEqual(models.map((m) => [m.id, m.contextWindow, m.maxOutputTokens, m.limitSource]), [
      ['kimi-k2-0905', undefined, undefined, 'unknown'],
      ['mystery-model', undefined, undefined, 'unknown'],
      ['vllm', 65_536, undefined, 'endpoint'],
      ['zz-local', 32_768, 4_096, 'endpoint'],
    ]);
    const local = models.find((m) => m.id === 'zz-local');
    assert.strictEqual(local?.toolCalling, false);
    assert.strictEqual(local?.imageInput, true);
  });

  it('accepts a bare array and ignores garbage', () => {
    assert.deepStrictEqual(parseModelList([{ id: 'a' }, null, 3, { name: 'no id' }]).map((m) => m.id), ['a']);
    assert.deepStrictEqual(parseModelList('nope'), []);
  });

});

describe('session id', () => {
  it('is stable as the conversation grows and differs between conversations', () => {
    const opening = [{ role: 'system' as const, content: 'sys' }, { role: 'user' as const, content: 'build a parser' }];
    const first = conversationSessionId(opening);
    const later = conversationSessionId([...opening, { role: 'assistant', content: 'ok' }, { role: 'user', content: 'more' }]);
    assert.strictEqual(first, later);
    assert.match(first, /^ses_[0-9a-f]{32}$/);
    assert.notStrictEqual(first, conversationSessionId([{ role: 'system', content: 'sys' }, { role: 'user', content: 'other task' }]));
  });
});
