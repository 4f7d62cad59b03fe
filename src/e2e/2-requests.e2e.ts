/** sendRequest through vscode.lm against the fake server: streaming, tool calls, token counts, cancellation. */
import * as assert from 'assert';
import * as vscode from 'vscode';
import { ask, chatRequests, enqueueReply, model, resetFake, waitFor } from './support';

const User = vscode.LanguageModelChatMessage.User;
const Assistant = vscode.LanguageModelChatMessage.Assistant;

describe('vscode.lm requests', () => {
  beforeEach(() => resetFake());

  it('streams the answer text', async () => {
    const chat = await model('fake-large');
    const expected = 'Streaming works: alpha beta gamma delta epsilon.';
    await enqueueReply({ text: expected });
    const response = await chat.sendRequest([User('say something')], {}, new vscode.CancellationTokenSource().token);
    const chunks: string[] = [];
    for await (const part of response.stream) {
      if (part instanceof vscode.LanguageModelTextPart) chunks.push(part.value);
    }
    assert.strictEqual(chunks.join(''), expected);
    assert.ok(chunks.length > 1, `expected several chunks, got ${chunks.length}`);
    const [req] = await chatRequests();
    assert.strictEqual(req.body.model, 'fake-large');
    assert.strictEqual(req.body.stream, true);
  });

  it('round-trips a tool call with VS Code\'s call id', async () => {
    const chat = await model('fake-large');
    const tools: vscode.LanguageModelChatTool[] = [{
      name: 'get_weather', description: 'Weather for a city',
      inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    }];
    await enqueueReply({ toolCalls: [{ id: 'call_fake_1', name: 'get_weather', arguments: '{"city":"Paris"}' }] });
    const first = await chat.sendRequest([User('weather in Paris?')], { tools }, new vscode.CancellationTokenSource().token);
    const calls: vscode.LanguageModelToolCallPart[] = [];
    for await (const part of first.stream) if (part instanceof vscode.LanguageModelToolCallPart) calls.push(part);
    assert.strictEqual(calls.length, 1, 'one tool call expected');
    const call = calls[0];
    assert.strictEqual(call.name, 'get_weather');
    assert.deepStrictEqual(call.input, { city: 'Paris' });
    assert.ok(call.callId, 'tool call has no callId');

    await enqueueReply({ text: 'It is sunny in Paris.' });
    const answer = await ask(chat, [
      User('weather in Paris?'),
      Assistant([new vscode.LanguageModelToolCallPart(call.callId, call.name, call.input)]),
      User([new vscode.LanguageModelToolResultPart(call.callId, [new vscode.LanguageModelTextPart('sunny, 24 C')])]),
    ], { tools });
    assert.strictEqual(answer, 'It is sunny in Paris.');

    const requests = await chatRequests();
    const body = requests[requests.length - 1].body;
    const assistant = body.messages.find(m => m.role === 'assistant' && m.tool_calls?.length);
    assert.ok(assistant, 'assistant tool_calls missing from the second request');
    assert.strictEqual(assistant.tool_calls![0].id, call.callId);
    const result = body.messages.find(m => m.role === 'tool');
    assert.ok(result, 'tool result message missing');
    assert.strictEqual(result.tool_call_id, call.callId);
    assert.match(JSON.stringify(result.content), /sunny, 24 C/);
  });

  it('counts tokens for a string and a message', async () => {
    const chat = await model('fake-large');
    const short = await chat.countTokens('hello world');
    assert.ok(short >= 1 && short <= 10, `countTokens('hello world') = ${short}`);
    const long = await chat.countTokens(User('hello world '.repeat(200)));
    assert.ok(long >= 300 && long <= 700, `countTokens(message of 400 words) = ${long}`);
    assert.ok(long > short);
  });

  it('cancels mid-stream and closes the connection', async () => {
    const chat = await model('fake-large');
    // 3,000 words in 8-character chunks, 5 ms apart: about 20 s if nobody cancelled.
    await enqueueReply({ text: Array.from({ length: 3000 }, (_, i) => `word${i}`).join(' '), chunkSize: 8, delayMsBetweenChunks: 5 });
    const cts = new vscode.CancellationTokenSource();
    const response = await chat.sendRequest([User('a long answer please')], {}, cts.token);
    let received = '';
    try {
      for await (const chunk of response.text) {
        received += chunk;
        if (!cts.token.isCancellationRequested) cts.cancel();
      }
    } catch (e) {
      // A cancelled stream may end with a CancellationError; anything else is a real failure.
      if (!(e instanceof vscode.CancellationError) && !/cancel/i.test(String(e))) throw e;
    }
    assert.ok(received.length > 0, 'nothing streamed before the cancel');
    assert.ok(!received.includes('word2999'), 'the whole answer arrived despite the cancel');
    const closed = await waitFor(async () => (await chatRequests()).some(r => r.closedEarly), 10_000);
    assert.ok(closed, 'the fake server did not see the client close early');
  });
});
