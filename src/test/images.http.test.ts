/**
 * Images over real HTTP through the engine (fake OpenCode server, which refuses an image over 2,000 px or
 * 5 MB, an image in a chat tool message, and any image for a text-only model, like the real providers):
 * a large image reaches the server resized, and a tool's image reaches a vision model natively on each route.
 */
import * as assert from 'assert';
import type { RouteId } from '../core/routeId';
import type { ChatMessage, StreamEvent } from '../core/types';
import { imageSize } from '../core/images/imageSize';
import { imagesIn } from '../fakeServer/imageChecks';
import { engineFor, MemoryStore } from './support/engineHarness';
import { useFakeServer } from './support/suiteHooks';
import { gradientPixels, noisePixels, pngOf } from './support/testImages';
import { toolImageNote } from '../core/convert/toWireMessages';

const fast = { sleep: async () => undefined, random: () => 0.5, idleTimeoutMs: 30_000 };
const VISION: Record<RouteId, string> = { chat: 'fake-vision', responses: 'fake-responses', messages: 'fake-messages', gemini: 'fake-native-gemini' };
const SETTING = { models: { 'fake-responses': { api: 'responses' }, 'fake-messages': { api: 'messages' }, 'fake-native-gemini': { api: 'gemini' } } };
const TOOLS = [{ name: 'screenshot', description: 'take a screenshot', inputSchema: { type: 'object', properties: {} } }];

/** A user asks, the model called the screenshot tool, the tool returned text and an image. */
function screenshotTurn(image: Uint8Array): ChatMessage[] {
  return [
    { role: 'user', parts: [{ kind: 'text', text: 'what is on the screen?' }] },
    { role: 'assistant', parts: [{ kind: 'toolCall', callId: 'call_shot', name: 'screenshot', input: {} }] },
    { role: 'user', parts: [{ kind: 'toolResult', callId: 'call_shot', text: 'took a screenshot', images: [{ mimeType: 'image/png', data: image }] }] },
  ];
}

describe('images over HTTP (engine, fake OpenCode server)', () => {
  const server = useFakeServer();

  async function run(modelId: string, messages: ChatMessage[], imageInput = true) {
    const { engine, log } = engineFor(server().url, SETTING, new MemoryStore(), fast);
    const events: StreamEvent[] = [];
    await engine.run({ purpose: 'conversation', modelId, messages, tools: TOOLS, imageInput }, { contextWindow: 100_000, maxOutputTokens: 4_000 }, (e) => events.push(e), new AbortController().signal);
    return { log, text: events.map((e) => (e.kind === 'text' ? e.text : '')).join(''), body: server().requests[server().requests.length - 1].body as Record<string, unknown> };
  }

  it('the fake server refuses an image over its limits (so the next test can fail)', async () => {
    const big = pngOf(gradientPixels(2_400, 600));
    const response = await fetch(`${server().url}/chat/completions`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'fake-vision', messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: `data:image/png;base64,${Buffer.from(big).toString('base64')}` } }] }] }),
    });
    assert.strictEqual(response.status, 400);
    assert.match(await response.text(), /image dimensions exceed max allowed size: 2000 pixels/);
  });

  for (const route of ['chat', 'messages'] as RouteId[]) {
    it(`${route}: a large image (3,000 × 1,500, over 5 MB as base64) reaches the server resized to 2,000 px and within 5 MB`, async function () {
      this.timeout(60_000);
      const big = pngOf(noisePixels(3_000, 1_500, 11));
      assert.ok(big.byteLength * 4 / 3 > 5 * 1024 * 1024, 'over the byte limit as sent');
      const { log, body } = await run(VISION[route], [{ role: 'user', parts: [{ kind: 'text', text: 'describe' }, { kind: 'image', mimeType: 'image/png', data: big }] }]);
      const [image] = imagesIn(route, body);
      assert.ok(image, 'the image was sent');
      const size = imageSize(Buffer.from(image.base64, 'base64'));
      assert.ok(size && Math.max(size.width, size.height) <= 2_000, `sent at ${JSON.stringify(size)}`);
      assert.ok(image.base64.length <= 5 * 1024 * 1024);
      assert.match(log.messages('info').join('\n'), /\[images\] Fitted 1 of 1 image\(s\) to the model's limits: \d+ → \d+ bytes\./);
    });
  }

  for (const route of ['chat', 'responses', 'messages', 'gemini'] as RouteId[]) {
    it(`${route}: a tool's image reaches a vision model natively (an image, not a note), after the tool's text`, async () => {
      const shot = pngOf(gradientPixels(64, 32));
      const { text, body } = await run(VISION[route], screenshotTurn(shot));
      assert.match(text, /^Answer/);
      const images = imagesIn(route, body);
      assert.strictEqual(images.length, 1);
      assert.strictEqual(Buffer.from(images[0].base64, 'base64').equals(Buffer.from(shot)), true, 'a small image goes unchanged');
      // Chat Completions tool messages are text only: the image is in the user message right after them.
      if (route === 'chat') {
        const messages = body.messages as { role: string; content: unknown }[];
        const tool = messages.findIndex((m) => m.role === 'tool');
        assert.strictEqual(messages[tool].content, 'took a screenshot');
        assert.strictEqual(messages[tool + 1].role, 'user');
        assert.match(images[0].where, new RegExp(`^messages\\.${tool + 1}\\.`));
      } else assert.strictEqual(images[0].inToolResult, true, `inside the tool result on ${route}`);
      assert.ok(!JSON.stringify(body).includes('omitted'), 'no note in place of the image');
    });
  }

  it('a text-only model gets a stable note in place of a tool image, and the request is accepted', async () => {
    const shot = pngOf(gradientPixels(64, 32));
    const first = await run('fake-large', screenshotTurn(shot), false);
    const second = await run('fake-large', screenshotTurn(Uint8Array.from(shot)), false);
    const messages = first.body.messages as { role: string; content: unknown }[];
    assert.strictEqual(messages.find((m) => m.role === 'tool')?.content, `took a screenshot\n${toolImageNote('image/png')}`);
    assert.deepStrictEqual(second.body.messages, first.body.messages);
    assert.strictEqual(imagesIn('chat', first.body).length, 0);
  });

  it('the same large image gives the same bytes on every turn (the cached prefix survives)', async function () {
    this.timeout(60_000);
    const big = pngOf(noisePixels(2_500, 400, 5));
    const history: ChatMessage[] = [{ role: 'user', parts: [{ kind: 'image', mimeType: 'image/png', data: big }, { kind: 'text', text: 'first' }] }];
    const one = await run('fake-vision', history);
    const two = await run('fake-vision', [...history, { role: 'assistant', parts: [{ kind: 'text', text: 'ok' }] }, { role: 'user', parts: [{ kind: 'text', text: 'second' }] }]);
    assert.deepStrictEqual((two.body.messages as unknown[])[0], (one.body.messages as unknown[])[0]);
  });
});
