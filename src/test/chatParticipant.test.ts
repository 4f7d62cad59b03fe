/** The @opencode participant, driven through the shared vscode double against the fake server. */
import * as assert from 'assert';
import { historyToMessages, PARTICIPANT_ID } from '../vscode/chatParticipant';
import * as double from './support/vscodeDouble';
import { activateAgainst } from './support/activatedExtension';
import { useActivated, useFakeServer } from './support/suiteHooks';

describe('@opencode chat participant', () => {
  const server = useFakeServer();
  useActivated(server, activateAgainst);

  it('turns earlier turns into user and assistant messages, skipping empty ones', () => {
    const md = (text: string) => new double.ChatResponseMarkdownPart(new double.MarkdownString().appendMarkdown(text));
    const messages = historyToMessages([{ prompt: 'first question' }, { response: [md('first '), md('answer')] }, { prompt: '  ' }] as never);
    assert.deepStrictEqual(messages.map((m) => [m.role, (m.content[0] as double.LanguageModelTextPart).value]), [
      [1, 'first question'],
      [2, 'first answer'],
    ]);
  });

  it('streams the model answer as markdown and sends the chat history with the prompt', async () => {
    const participant = double.registeredParticipants.get(PARTICIPANT_ID);
    assert.ok(participant);
    server().enqueueReply({ text: 'Second **answer**.' });
    const streamed: string[] = [];
    const [model] = await double.lm.selectChatModels({ vendor: 'opencode' });
    const history = [{ prompt: 'hello' }, { response: [new double.ChatResponseMarkdownPart(new double.MarkdownString().appendMarkdown('Hi there.'))] }];
    await participant.handler({ prompt: 'and now?', model }, { history }, { markdown: (text: string) => streamed.push(text) }, new double.CancellationTokenSource().token);
    assert.strictEqual(streamed.join(''), 'Second **answer**.');
    const sent = server().requests.at(-1)?.body.messages;
    assert.deepStrictEqual(sent, [
      { role: 'user', content: 'hello' },
      { role: 'assistant', content: 'Hi there.' },
      { role: 'user', content: 'and now?' },
    ]);
  });

  it('participant-error-excerpt: a failure carrying an HTML page shows and logs a short redacted excerpt', async () => {
    const participant = double.registeredParticipants.get(PARTICIPANT_ID);
    assert.ok(participant);
    const page = `<!DOCTYPE html><html><body><h1>502 Bad Gateway</h1>${'<p>upstream filler</p>\n'.repeat(300)} Bearer sk-PAGEKEY-abcdefghijkl</body></html>`;
    const model = { vendor: 'opencode', id: 'broken', sendRequest: async () => Promise.reject(new Error(page)) };
    const shown: string[] = [];
    const log = double.createdChannels.at(-1);
    assert.ok(log);
    const before = log.lines.length;
    await participant.handler({ prompt: 'hi', model }, { history: [] }, { markdown: (md: { value?: string } | string) => shown.push(typeof md === 'string' ? md : String(md.value)) }, new double.CancellationTokenSource().token);
    const logged = log.lines.slice(before).map((l) => l.message).join('\n');
    for (const [what, text] of [['chat', shown.join('')], ['log', logged]]) {
      assert.match(text, /502/, what);
      assert.ok(text.length < 1_000, `${what}: ${text.length} characters`);
      assert.doesNotMatch(text, /<p>|<html|PAGEKEY/, what);
    }
  });
});
