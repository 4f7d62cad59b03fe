/**
 * Hostile and real-size images over real HTTP through the engine (fake OpenCode server): a decompression-bomb
 * PNG returned by a tool becomes a note on every route (the request is accepted, nothing is decoded), and a
 * 12 MP photo from a tool reaches the vision model fitted by the worker.
 */
import * as assert from 'assert';
import type { RouteId } from '../core/routeId';
import type { ChatMessage, StreamEvent } from '../core/types';
import { imageSize } from '../core/images/imageSize';
import { imagesIn } from '../fakeServer/imageChecks';
import { engineFor, MemoryStore } from './support/engineHarness';
import { useFakeServer } from './support/suiteHooks';
import { pngBomb } from './support/hostileImages';
import { gradientPixels, jpegOf } from './support/testImages';

const fast = { sleep: async () => undefined, random: () => 0.5, idleTimeoutMs: 30_000 };
const VISION: Record<RouteId, string> = { chat: 'fake-vision', responses: 'fake-responses', messages: 'fake-messages', gemini: 'fake-native-gemini' };
const SETTING = { models: { 'fake-responses': { api: 'responses' }, 'fake-messages': { api: 'messages' }, 'fake-native-gemini': { api: 'gemini' } } };
const TOOLS = [{ name: 'screenshot', description: 'take a screenshot', inputSchema: { type: 'object', properties: {} } }];

function toolTurn(mimeType: string, image: Uint8Array): ChatMessage[] {
  return [
    { role: 'user', parts: [{ kind: 'text', text: 'what is on the screen?' }] },
    { role: 'assistant', parts: [{ kind: 'toolCall', callId: 'call_shot', name: 'screenshot', input: {} }] },
    { role: 'user', parts: [{ kind: 'toolResult', callId: 'call_shot', text: 'took a screenshot', images: [{ mimeType, data: image }] }] },
  ];
}

describe('hostile and real-size images over HTTP (engine, fake OpenCode server)', () => {
  const server = useFakeServer();

  async function run(modelId: string, messages: ChatMessage[]) {
    const { engine, log } = engineFor(server().url, SETTING, new MemoryStore(), fast);
    const events: StreamEvent[] = [];
    await engine.run({ purpose: 'conversation', modelId, messages, tools: TOOLS, imageInput: true }, { contextWindow: 100_000, maxOutputTokens: 4_000 }, (e) => events.push(e), new AbortController().signal);
    return { log, text: events.map((e) => (e.kind === 'text' ? e.text : '')).join(''), body: server().requests[server().requests.length - 1].body as Record<string, unknown> };
  }

  const bomb = pngBomb();
  const note = '[image image/png omitted: 20000×20000 pixels is over the 100-megapixel bound]';
  for (const route of ['chat', 'responses', 'messages', 'gemini'] as RouteId[]) {
    it(`${route}: a 20000×20000 PNG bomb from a tool is not sent: a note after the tool's text, one WARN, the answer arrives`, async () => {
      const { text, body, log } = await run(VISION[route], toolTurn('image/png', bomb));
      assert.match(text, /^Answer/);
      assert.strictEqual(imagesIn(route, body).length, 0, 'no image sent');
      assert.ok(JSON.stringify(body).includes(JSON.stringify(`took a screenshot\n${note}`).slice(1, -1)), 'the note follows the tool text');
      assert.deepStrictEqual(log.messages('warn').filter((m) => m.startsWith('[images]')), ['[images] 1 image(s) not sent, each replaced by a note (20000×20000 pixels is over the 100-megapixel bound; not decoded).']);
    });
  }

  it('a 12 MP photo (4000×3000 JPEG) from a tool reaches the vision model at 2,000 px, smaller than it came', async function () {
    this.timeout(240_000);
    const photo = jpegOf(gradientPixels(4_000, 3_000), 92);
    const { body, log } = await run(VISION.chat, toolTurn('image/jpeg', photo));
    const [image] = imagesIn('chat', body);
    const sent = Buffer.from(image.base64, 'base64');
    assert.deepStrictEqual(imageSize(sent), { width: 2_000, height: 1_500 });
    assert.ok(sent.byteLength < photo.byteLength);
    assert.match(log.messages('info').join('\n'), /\[images\] Fitted 1 of 1 image\(s\) to the model's limits: \d+ → \d+ bytes\./);
  });
});
