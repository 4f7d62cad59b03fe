/** The VS Code adapter keeps a tool's images as images (they used to become "[image … omitted]" text). */
import * as assert from 'assert';
import * as double from './support/vscodeDouble';
import { TINY_PNG } from './support/testImages';
import { toChatPart } from '../vscode/chatTypes';

describe('tool-result images (VS Code adapter)', () => {
  it('a LanguageModelToolResultPart with a text part and an image data part: the text, and the image kept as an image', () => {
    const part = new double.LanguageModelToolResultPart('call_1', [new double.LanguageModelTextPart('a screenshot'), new double.LanguageModelDataPart(TINY_PNG, 'image/png')]);
    assert.deepStrictEqual(toChatPart(part), { kind: 'toolResult', callId: 'call_1', text: 'a screenshot', images: [{ mimeType: 'image/png', data: TINY_PNG }] });
  });

  it('a shaped tool result from another copy of the API keeps its image too; a result without images has no images field', () => {
    const shaped = { callId: 'call_2', content: [{ mimeType: 'image/jpeg', data: TINY_PNG }] };
    assert.deepStrictEqual(toChatPart(shaped), { kind: 'toolResult', callId: 'call_2', text: '', images: [{ mimeType: 'image/jpeg', data: TINY_PNG }] });
    assert.deepStrictEqual(toChatPart(new double.LanguageModelToolResultPart('call_3', [new double.LanguageModelTextPart('ok')])), { kind: 'toolResult', callId: 'call_3', text: 'ok' });
  });
});
