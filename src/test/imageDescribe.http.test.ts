/**
 * Images for a text-only model over real HTTP (engine, fake OpenCode server, which refuses any image for a
 * text-only model and describes an image by its size and bytes' hash): one describing request per distinct image
 * across ten turns, the text-only model's requests byte-identical before the new turn, the description naming the
 * describing model, remembered across a restart; without a vision model (or when describing fails) the note stays.
 */
import * as assert from 'assert';
import type { ChatMessage, ChatPart, StreamEvent } from '../core/types';
import { hashId } from '../core/util/hashId';
import type { DescribingModel } from '../core/request/describeImages';
import { engineFor, MemoryStore } from './support/engineHarness';
import { useFakeServer } from './support/suiteHooks';
import { gradientPixels, noisePixels, pngOf } from './support/testImages';
import { IMAGE_NOTE } from '../core/convert/toWireMessages';

const fast = { sleep: async () => undefined, random: () => 0.5, idleTimeoutMs: 30_000 };
const VISION: DescribingModel = { modelId: 'fake-vision', listed: { contextWindow: 128_000, maxOutputTokens: 16_000, imageInput: true } };
const LIMITS = { contextWindow: 1_000_000, maxOutputTokens: 32_000 };
const fingerprint = (png: Uint8Array) => `sha256:${hashId(png).slice(0, 12)}`;

describe('images for a text-only model, described by a vision model (HTTP, fake server)', () => {
  const server = useFakeServer();
  const textOnlyBodies = () => server().requests.filter((r) => r.body?.model === 'fake-large').map((r) => r.body as { messages: unknown[] });
  const describing = () => server().requests.filter((r) => r.body?.model === 'fake-vision');

  /** One user turn (text and maybe an image) to fake-large; the answer is appended to `history`. */
  async function turn(engine: ReturnType<typeof engineFor>['engine'], history: ChatMessage[], text: string, image?: Uint8Array, describeWith: DescribingModel | null = VISION): Promise<string> {
    const parts: ChatPart[] = [{ kind: 'text', text }];
    if (image) parts.push({ kind: 'image', mimeType: 'image/png', data: image });
    history.push({ role: 'user', parts });
    const events: StreamEvent[] = [];
    await engine.run({ purpose: 'conversation', modelId: 'fake-large', messages: history, tools: [], imageInput: false, describeWith: describeWith ?? undefined }, LIMITS, (e) => events.push(e), new AbortController().signal);
    const answer = events.map((e) => (e.kind === 'text' ? e.text : '')).join('');
    history.push({ role: 'assistant', parts: [{ kind: 'text', text: answer }] });
    return answer;
  }

  it('ten turns, three distinct images (one sent twice): three describing requests, each later request extends the previous byte for byte', async () => {
    const { engine, log } = engineFor(server().url, {}, new MemoryStore(), fast);
    const images = [pngOf(gradientPixels(64, 32)), pngOf(noisePixels(40, 40, 3)), pngOf(noisePixels(20, 50, 9))];
    const plan: (Uint8Array | undefined)[] = [images[0], undefined, images[1], undefined, undefined, images[2], undefined, images[0], undefined, undefined];
    const history: ChatMessage[] = [];
    for (let i = 0; i < plan.length; i++) await turn(engine, history, `turn ${i + 1}: what do you make of this?`, plan[i]);

    assert.strictEqual(describing().length, 3, 'one describing request per distinct image');
    const bodies = textOnlyBodies();
    assert.strictEqual(bodies.length, 10);
    for (let i = 1; i < bodies.length; i++) {
      const before = bodies[i - 1].messages;
      // The previous request's messages, then its answer, then the new turn: the same bytes before the new turn.
      assert.strictEqual(JSON.stringify(bodies[i].messages.slice(0, before.length)), JSON.stringify(before), `request ${i + 1} rewrote what request ${i} sent`);
    }
    const last = JSON.stringify(bodies[9].messages);
    assert.ok(!last.includes('image_url'), 'no image reaches the text-only model');
    assert.ok(!last.includes(IMAGE_NOTE), 'no image became the note');
    for (const image of images) assert.ok(last.includes(fingerprint(image)), `the description of ${fingerprint(image)} comes from its bytes`);
    assert.strictEqual(last.split('[image described by fake-vision').length - 1, 4, 'four images sent, each named by the describing model');
    const usage = log.messages('info').filter((m) => m.startsWith('[usage]'));
    assert.strictEqual(usage.filter((m) => m.endsWith(' purpose=describe')).length, 3, 'each describing request has its [usage] line with its purpose');
    assert.strictEqual(usage.filter((m) => !m.includes('purpose=')).length, 10);
    assert.ok(!log.messages('warn').some((m) => m.includes('replaced')), 'no note');
  });

  it('a restart remembers the description (persisted): the same image is not described again, the same text is sent', async () => {
    const store = new MemoryStore();
    const image = pngOf(gradientPixels(30, 30));
    const first = engineFor(server().url, {}, store, fast);
    await turn(first.engine, [], 'look', image);
    const again = engineFor(server().url, {}, store, fast);
    await turn(again.engine, [], 'look', image);
    assert.strictEqual(describing().length, 1);
    const [a, b] = textOnlyBodies();
    assert.strictEqual(JSON.stringify(b.messages), JSON.stringify(a.messages));
  });

  it('without a vision model the note stays, with its [request] WARN', async () => {
    const { engine, log } = engineFor(server().url, {}, new MemoryStore(), fast);
    await turn(engine, [], 'what is this?', pngOf(gradientPixels(16, 16)), null);
    assert.strictEqual(describing().length, 0);
    assert.ok(JSON.stringify(textOnlyBodies()[0].messages).includes(IMAGE_NOTE));
    assert.ok(log.messages('warn').includes('[request] fake-large does not accept images; replaced 1 image(s) with a note.'), log.messages('warn').join('\n'));
  });

  it('when describing fails (the vision model is not there) the note stays, and both WARNs say so', async () => {
    const { engine, log } = engineFor(server().url, {}, new MemoryStore(), fast);
    const missing = { modelId: 'no-such-vision', listed: {} };
    const tried = () => server().requests.filter((r) => r.body?.model === 'no-such-vision').length;
    const history: ChatMessage[] = [];
    const answer = await turn(engine, history, 'what is this?', pngOf(gradientPixels(16, 16)), missing);
    assert.match(answer, /^Answer 1 to: what is this\?/);
    assert.ok(JSON.stringify(textOnlyBodies()[0].messages).includes(IMAGE_NOTE));
    const warns = log.messages('warn');
    assert.ok(warns.some((m) => /^\[images\] no-such-vision could not describe 1 image\(s\) for fake-large \(.+\); each stays a note\.$/.test(m)), warns.join('\n'));
    assert.ok(warns.includes('[request] fake-large does not accept images; replaced 1 image(s) with a note.'));
    // The next turn does not ask the missing model again for the same image: the note stays the same bytes.
    const before = tried();
    assert.ok(before > 0);
    await turn(engine, history, 'and now?', undefined, missing);
    assert.strictEqual(tried(), before);
    const [first, second] = textOnlyBodies();
    assert.strictEqual(JSON.stringify(second.messages.slice(0, first.messages.length)), JSON.stringify(first.messages));
  });

  it("a tool's image is described inside the tool's text", async () => {
    const { engine } = engineFor(server().url, {}, new MemoryStore(), fast);
    const shot = pngOf(gradientPixels(24, 12));
    const messages: ChatMessage[] = [
      { role: 'user', parts: [{ kind: 'text', text: 'what is on the screen?' }] },
      { role: 'assistant', parts: [{ kind: 'toolCall', callId: 'call_shot', name: 'screenshot', input: {} }] },
      { role: 'user', parts: [{ kind: 'toolResult', callId: 'call_shot', text: 'took a screenshot', images: [{ mimeType: 'image/png', data: shot }] }] },
    ];
    const tools = [{ name: 'screenshot', description: 'take a screenshot', inputSchema: { type: 'object', properties: {} } }];
    await engine.run({ purpose: 'conversation', modelId: 'fake-large', messages, tools, imageInput: false, describeWith: VISION }, LIMITS, () => undefined, new AbortController().signal);
    const sent = textOnlyBodies()[0].messages as { role: string; content: unknown }[];
    const tool = sent.find((m) => m.role === 'tool');
    assert.match(String(tool?.content), new RegExp(`^took a screenshot\\n\\[image image/png returned by the tool, described by fake-vision \\(this model does not accept images\\): .*${fingerprint(shot)}`));
  });
});
