/**
 * Images for a text-only model through the provider (VS Code double, fake server over real HTTP): the endpoint's
 * vision model is found in its list, describes the image, the report counts the describing request apart and its
 * dollars; `opencode.imageDescription.model: none` keeps the note and tells VS Code the model takes no images.
 */
import * as assert from 'assert';
import * as double from './support/vscodeDouble';
import { activateAgainst, ask, userParts } from './support/activatedExtension';
import { useFakeServer } from './support/suiteHooks';
import { gradientPixels, pngOf } from './support/testImages';
import { IMAGE_NOTE } from '../core/convert/toWireMessages';

const fast = { sleep: async () => undefined, random: () => 0.5, idleTimeoutMs: 30_000 };
const TOOLS = { tools: [{ name: 'read_file', description: 'Read a file', inputSchema: { type: 'object' } }] };

describe('images for a text-only model (provider, fake server)', () => {
  const server = useFakeServer();
  const posted = () => server().requests.filter((r) => r.method === 'POST');
  const image = () => new double.LanguageModelDataPart(pngOf(gradientPixels(48, 24)), 'image/png');

  it('fake-large gets fake-vision\'s description; the report counts one image description apart', async () => {
    const ext = activateAgainst(server(), { 'imageDescription.model': 'fake-vision' }, undefined, fast);
    try {
      const answer = await ask(ext, 'fake-large', [userParts([image(), new double.LanguageModelTextPart('what is this?')])], TOOLS);
      assert.match(answer.text, /^Answer 1 to: \[image described by fake-vision/);
      assert.deepStrictEqual(posted().map((r) => r.body?.model), ['fake-vision', 'fake-large']);
      const sent = JSON.stringify(posted()[1].body.messages);
      assert.ok(!sent.includes('image_url') && !sent.includes(IMAGE_NOTE));
      const [conversation] = ext.requests?.list() ?? [];
      assert.strictEqual(conversation?.modelId, 'fake-large');
      assert.strictEqual(conversation.records.length, 1, 'the describing request is not a request of the conversation');
      assert.strictEqual(conversation.describing?.requests, 1);
      assert.ok((conversation.describing?.costUsd ?? 0) > 0, 'its dollars (the fake server reports a cost)');
      assert.ok(ext.log.text().includes('purpose=describe'));
    } finally {
      ext.dispose();
    }
  });

  it('without the setting, the endpoint\'s cheapest priced vision model describes (gpt-5.4-mini: the one the model data prices)', async () => {
    const ext = activateAgainst(server());
    try {
      await ask(ext, 'fake-large', [userParts([image(), new double.LanguageModelTextPart('what is this?')])], TOOLS);
      const models = posted().map((r) => r.body?.model);
      // (gpt-5.4-mini's route may be found by trial first: more than one POST for its one describing request.)
      assert.deepStrictEqual([...new Set(models)], ['gpt-5.4-mini', 'fake-large']);
      assert.strictEqual(models.at(-1), 'fake-large');
      assert.ok(JSON.stringify(posted().at(-1)?.body.messages).includes('[image described by gpt-5.4-mini'));
    } finally {
      ext.dispose();
    }
  });

  it('with opencode.imageDescription.model "none": VS Code is told fake-large takes no images, and an image becomes the note', async () => {
    const ext = activateAgainst(server(), { 'imageDescription.model': 'none' });
    try {
      const models = await ext.provider.provideLanguageModelChatInformation({ silent: true }, new double.CancellationTokenSource().token as never);
      assert.strictEqual(models?.find((m) => m.id === 'fake-large')?.capabilities.imageInput, false);
      await ask(ext, 'fake-large', [userParts([new double.LanguageModelTextPart('what is this?'), image()])], TOOLS);
      assert.deepStrictEqual(posted().map((r) => r.body?.model), ['fake-large']);
      assert.ok(JSON.stringify(posted()[0].body.messages).includes(IMAGE_NOTE));
      assert.match(ext.log.text(), /\[request\] fake-large does not accept images; replaced 1 image\(s\) with a note\./);
    } finally {
      ext.dispose();
    }
  });
});
