/**
 * Bad or odd input from VS Code chat, through the provider over real HTTP: parts we do not know, empty
 * messages, the System role, a message larger than the whole budget, images for a text-only model, a
 * model the endpoint does not serve, an endpoint URL without the chat route. Checked on what was SENT.
 */
import * as assert from 'assert';
import { filler } from './support/trimHarness';
import { TINY_PNG } from './support/testImages';
import * as double from './support/vscodeDouble';
import { activateAgainst, ask, assistant, user, userParts } from './support/activatedExtension';
import { useActivated, useFakeServer } from './support/suiteHooks';
import { IMAGE_NOTE } from '../core/convert/toWireMessages';

const bytes = (text: string) => new Uint8Array(Buffer.from(text, 'utf8'));
const PNG = TINY_PNG;

describe('bad input (provider, real HTTP)', () => {
  const server = useFakeServer();
  const ext = useActivated(server, activateAgainst);
  const sent = () => server().requests.filter((r) => r.path.endsWith('/chat/completions')).at(-1)?.body;

  it('drops parts it does not know (null, numbers, plain objects, cache_control, stateful_marker) and keeps the text', async () => {
    const odd = [
      null,
      42,
      { some: 'thing' },
      new double.LanguageModelDataPart(bytes('{"type":"ephemeral"}'), 'cache_control'),
      new double.LanguageModelDataPart(bytes('opaque'), 'stateful_marker'),
      new double.LanguageModelTextPart('the real question'),
    ];
    const { text } = await ask(ext(), 'fake-large', [userParts(odd)]);
    assert.ok(text.startsWith('Answer 1 to: the real question'));
    assert.deepStrictEqual(sent().messages, [{ role: 'user', content: 'the real question' }]);
  });

  it('never sends an empty message: empty user and assistant messages are left out, the rest is kept in order', async () => {
    await ask(ext(), 'fake-large', [user('first'), assistant(''), userParts([]), assistant([]), user(''), user('second')]);
    assert.deepStrictEqual(sent().messages, [
      { role: 'user', content: 'first' },
      { role: 'user', content: 'second' },
    ]);
  });

  it('sends role 3 (System, not in the finalized enum) as a system message', async () => {
    const system = new double.LanguageModelChatMessage(3, [new double.LanguageModelTextPart('You are terse.')]);
    await ask(ext(), 'fake-large', [system as never, user('hi')]);
    assert.deepStrictEqual(sent().messages, [
      { role: 'system', content: 'You are terse.' },
      { role: 'user', content: 'hi' },
    ]);
  });

  it('sends a single message larger than the whole budget truncated with a marker, under the budget, and logs it', async () => {
    ext().dispose();
    const small = activateAgainst(server(), { maxInputTokens: 8_000 });
    try {
      const huge = `BEGIN ${filler(30_000, 5)} END`;
      const { text } = await ask(small, 'fake-large', [user('ANCHOR task'), assistant('ok'), user(huge)]);
      assert.ok(text.startsWith('Answer 2 to: BEGIN'));
      const content = sent().messages.at(-1).content as string;
      assert.ok(content.startsWith('BEGIN ') && content.endsWith(' END'));
      assert.match(content, /\[… \d+ characters removed by the OpenCode extension to fit the model's context window …\]/);
      assert.ok(content.length < huge.length / 2);
      assert.match(small.log.text(), /\[warn\] \[history-trim\] Truncated a user message \(input #2\) from ~\d+ to ~\d+ tokens/);
      assert.ok(!small.log.lines.some((l) => l.level === 'error'), 'not sent over budget');
    } finally {
      small.dispose();
    }
  });

  it('replaces images with a note for a text-only model without a describing model (and says so), and sends them to a vision model', async () => {
    ext().dispose();
    const alone = activateAgainst(server(), { 'imageDescription.model': 'none' });
    try {
      await ask(alone, 'fake-large', [userParts([new double.LanguageModelTextPart('what is this? '), new double.LanguageModelDataPart(PNG, 'image/png')])]);
      assert.deepStrictEqual(sent().messages, [{ role: 'user', content: `what is this? ${IMAGE_NOTE}` }]);
      assert.match(alone.log.text(), /\[warn\] \[request\] fake-large does not accept images; replaced 1 image\(s\) with a note\./);
    } finally {
      alone.dispose();
    }
    const again = activateAgainst(server());
    try {
      await ask(again, 'fake-vision', [userParts([new double.LanguageModelTextPart('what is this? '), new double.LanguageModelDataPart(PNG, 'image/png')])]);
      const parts = sent().messages[0].content;
      assert.strictEqual(parts[1].type, 'image_url');
      assert.match(parts[1].image_url.url, /^data:image\/png;base64,/);
    } finally {
      again.dispose();
    }
  });

  it('a model the endpoint does not list: a sentence that says to refresh and pick another, not retried', async () => {
    const model = { id: 'retired-model', name: 'retired-model', family: 'x', version: '1', maxInputTokens: 10_000, maxOutputTokens: 1_000, capabilities: {} };
    await assert.rejects(
      async () => ext().provider.provideLanguageModelChatResponse(model, [user('hi')], { toolMode: 1 } as never, { report: () => undefined }, new double.CancellationTokenSource().token as never),
      { message: 'The endpoint does not serve the model "retired-model". Run "OpenCode: Refresh Models" and pick another model.' },
    );
    assert.strictEqual(server().requests.filter((r) => r.path.endsWith('/chat/completions')).length, 1);
    assert.match(ext().log.text(), /\[error\] \[error\] retired-model: .*\(404 The model `retired-model` does not exist \[type=invalid_request_error, code=model_not_found\]\)/);
  });

  it('an endpoint URL without the chat route (a 404 that is not about the model) points at opencode.baseUrl', async () => {
    ext().dispose();
    const wrongRoute = activateAgainst({ url: server().url.replace(/\/v1$/, '/api') });
    try {
      const model = { id: 'fake-large', name: 'fake-large', family: 'x', version: '1', maxInputTokens: 10_000, maxOutputTokens: 1_000, capabilities: {} };
      await assert.rejects(
        async () => wrongRoute.provider.provideLanguageModelChatResponse(model, [user('hi')], { toolMode: 1 } as never, { report: () => undefined }, new double.CancellationTokenSource().token as never),
        { message: `${server().url.replace(/\/v1$/, '/api')} has no chat-completions route (HTTP 404). Check the opencode.baseUrl setting (OpenAI-compatible endpoints usually end in /v1).` },
      );
    } finally {
      wrongRoute.dispose();
    }
  });
});
