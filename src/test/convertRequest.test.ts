/**
 * The one conversion step before the trim (convertRequest): images replaced only for text-only models,
 * reasoning restored before the tool pairs are repaired, and what changed reported for the log lines.
 */
import * as assert from 'assert';
import fc from 'fast-check';
import { resolveSettings } from '../core/config/settings';
import { convertRequest, logConversion, repairedHistory, ReasoningMemory, MISSING_TOOL_RESULT } from '../core/convert/convertRequest';
import { toWireMessages, IMAGE_NOTE } from '../core/convert/toWireMessages';
import { SizeMemo } from '../core/trim/messageSize';
import type { ChatMessage, ChatPart } from '../core/types';
import { prepareRequest } from './support/prepareRequest';
import { ConversationStates } from '../core/trim/trimState';
import { MemoryLogger } from './support/memoryLogger';

const image: ChatPart = { kind: 'image', mimeType: 'image/png', data: new Uint8Array([1, 2, 3]) };
const part = fc.oneof(fc.string({ minLength: 1 }).map((text): ChatPart => ({ kind: 'text', text })), fc.constant(image));
const userMessage = fc.array(part, { minLength: 1, maxLength: 4 }).map((parts): ChatMessage => ({ role: 'user', parts }));
const imagesIn = (messages: ChatMessage[]): number => messages.flatMap((m) => m.parts).filter((p) => p.kind === 'image').length;
const wireText = (value: unknown): string => JSON.stringify(value);

describe('convertRequest', () => {
  it('replaces every image by the note for a text-only model, and none for a model that takes images', () => {
    fc.assert(
      fc.property(fc.array(userMessage, { minLength: 1, maxLength: 6 }), (messages) => {
        const textOnly = convertRequest(messages, { imageInput: false });
        const vision = convertRequest(messages, { imageInput: true });
        const count = imagesIn(messages);
        assert.strictEqual(textOnly.imagesReplaced, count);
        assert.ok(!wireText(textOnly.messages).includes('image_url'));
        assert.strictEqual(wireText(textOnly.messages).split(IMAGE_NOTE).length - 1, count);
        assert.strictEqual(vision.imagesReplaced, 0);
        assert.strictEqual(wireText(vision.messages).split('"image_url":{').length - 1, count);
      }),
    );
  });

  it('restores reasoning before repairing tool pairs, and counts both repairs', () => {
    const reasoningMemory = new ReasoningMemory();
    reasoningMemory.remember(['call_a'], 'why a');
    const messages: ChatMessage[] = [
      { role: 'user', parts: [{ kind: 'toolResult', callId: 'ghost', text: 'orphan' }, { kind: 'text', text: 'go' }] },
      { role: 'assistant', parts: [{ kind: 'toolCall', callId: 'call_a', name: 'read', input: {} }] },
      { role: 'user', parts: [{ kind: 'text', text: 'next' }] },
    ];
    const out = convertRequest(messages, { imageInput: true, reasoningMemory });
    assert.deepStrictEqual([out.reasoningRestored, out.droppedOrphanResults, out.addedMissingResults], [1, 1, 1]);
    assert.deepStrictEqual(out.messages.map((m) => m.role), ['user', 'assistant', 'tool', 'user']);
    const call = out.messages[1];
    assert.ok(call.role === 'assistant' && call.reasoning_content === 'why a');
    assert.deepStrictEqual(out.messages[2], { role: 'tool', tool_call_id: 'call_a', content: MISSING_TOOL_RESULT });
  });

  it('repairs a recorded wire history (replay tool, bench) exactly as the conversion step does, with the same line', () => {
    const messages: ChatMessage[] = [
      { role: 'assistant', parts: [{ kind: 'toolCall', callId: 'c', name: 'read', input: {} }] },
      { role: 'user', parts: [{ kind: 'toolResult', callId: 'ghost', text: 'x' }, { kind: 'text', text: 'next' }] },
    ];
    const log = new MemoryLogger();
    const converted = convertRequest(messages, { imageInput: true });
    assert.deepStrictEqual(repairedHistory(convertRequest(messages, { imageInput: true }).messages, log), converted.messages);
    assert.deepStrictEqual(repairedHistory(toWireMessages(messages), log), converted.messages);
    assert.deepStrictEqual(log.lines, [{ level: 'warn', message: '[request] Repaired tool pairs: dropped 1 orphaned tool result(s), closed 1 call(s) that had no result.' }]);
  });

  it('logs what it changed with the documented lines, and nothing when nothing changed', () => {
    const log = new MemoryLogger();
    logConversion('m', { imagesReplaced: 2, reasoningRestored: 1, droppedOrphanResults: 1, addedMissingResults: 0 }, log);
    assert.deepStrictEqual(log.lines, [
      { level: 'warn', message: '[request] m does not accept images; replaced 2 image(s) with a note.' },
      { level: 'debug', message: '[request] Restored the reasoning of 1 tool-call answer(s) the history had lost.' },
      { level: 'warn', message: '[request] Repaired tool pairs: dropped 1 orphaned tool result(s), closed 0 call(s) that had no result.' },
    ]);
    const silent = new MemoryLogger();
    logConversion('m', { imagesReplaced: 0, reasoningRestored: 0, droppedOrphanResults: 0, addedMissingResults: 0 }, silent);
    assert.deepStrictEqual(silent.lines, []);
  });

  it('is the step prepareRequest runs: a text-only request body carries the note, not the image', () => {
    const settings = resolveSettings(() => undefined, () => undefined);
    const messages: ChatMessage[] = [{ role: 'user', parts: [{ kind: 'text', text: 'see' }, image] }];
    const body = (imageInput: boolean, log = new MemoryLogger()) =>
      wireText(prepareRequest({ purpose: 'conversation', modelId: 'm', messages, tools: [], imageInput }, { settings, limits: { contextWindow: 100_000, maxOutputTokens: 4_000 }, calibration: 1, memo: new SizeMemo(), states: new ConversationStates(), log }).body);
    const log = new MemoryLogger();
    assert.ok(body(false, log).includes(IMAGE_NOTE) && !body(false).includes('image_url'));
    assert.ok(log.lines.some((l) => l.message === '[request] m does not accept images; replaced 1 image(s) with a note.'));
    assert.ok(body(true).includes('image_url'));
  });
});
