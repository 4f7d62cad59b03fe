/** Every fault of the fake server, observed the way a client sees it. */
import * as assert from 'node:assert/strict';
import { PrefixCacheModel } from '../cacheModel/prefixCache';
import { defaultReplyText } from '../fakeServer/replies';
import { answerPayloads, dataPayloads, jsonOf, joinedDelta, parsedChunks, postChat, readStream, toolArgumentPieces } from '../fakeServer/client';
import { useFakeServer } from './support/suiteHooks';

const messages = [{ role: 'user', content: 'tell me about faults' }];
const streamed = { model: 'fake-large', messages, stream: true };
const plain = { model: 'fake-large', messages };
const defaultText = defaultReplyText(messages);

describe('fake server: faults', () => {
  const server = useFakeServer();

  const withFault = (fault: string | object, body: object = streamed) =>
    postChat(server().url, body, { 'x-fake-fault': typeof fault === 'string' ? fault : JSON.stringify(fault) });

  it('status-429 carries Retry-After, default 1 second or the given one', async () => {
    const res = await withFault('status-429');
    assert.equal(res.status, 429);
    assert.equal(res.headers.get('retry-after'), '1');
    assert.equal((await jsonOf(res)).error.type, 'rate_limit_error');
    const slower = await withFault({ name: 'status-429', seconds: 7 });
    assert.equal(slower.headers.get('retry-after'), '7');
  });

  for (const status of [500, 502, 503, 401]) {
    it(`status-${status} answers ${status} with an error body`, async () => {
      const res = await withFault(`status-${status}`);
      assert.equal(res.status, status);
      assert.equal(typeof (await jsonOf(res)).error.message, 'string');
    });
  }

  it('reset-before-first-byte drops the connection without a response', async () => {
    await assert.rejects(withFault('reset-before-first-byte'), TypeError);
    await server().whenRequestClosed(0);
    assert.equal(server().requests[0].closedEarly, false, 'the server, not the client, closed it');
  });

  it('cut-after-text sends three text chunks and then drops the connection', async () => {
    const { text, error } = await readStream(await withFault('cut-after-text'));
    assert.ok(error, 'the body read must fail');
    const chunks = parsedChunks(text);
    assert.equal(chunks.length, 3);
    assert.equal(joinedDelta(chunks, 'content'), defaultText.slice(0, 24));
    assert.equal(dataPayloads(text).includes('[DONE]'), false);
    assert.equal(chunks.some((c) => c.choices[0].finish_reason), false);
  });

  it('cut-in-tool-call stops inside the arguments JSON', async () => {
    const { text, error } = await readStream(await withFault('cut-in-tool-call'));
    assert.ok(error);
    const pieces = toolArgumentPieces(parsedChunks(text));
    assert.equal(pieces.length, 2);
    assert.equal(pieces.join(''), '{"path":"src/ext');
    assert.throws(() => JSON.parse(pieces.join('')));
    assert.equal(dataPayloads(text).includes('[DONE]'), false);
  });

  it('cut on a non-streaming request sends half a JSON body and drops the connection', async () => {
    const res = await withFault('cut-after-text', plain);
    assert.equal(res.status, 200);
    await assert.rejects(res.json());
  });

  it('stall goes quiet after the first chunk for `ms`, then finishes', async () => {
    const started = Date.now();
    const { text, error } = await readStream(await withFault({ name: 'stall', ms: 300 }));
    assert.equal(error, undefined);
    assert.ok(Date.now() - started >= 250, `stalled only ${Date.now() - started} ms`);
    assert.equal(joinedDelta(parsedChunks(text), 'content'), defaultText);
    assert.equal(answerPayloads(text).at(-1), '[DONE]');
  });

  it('malformed-chunk puts one non-JSON frame mid-stream and carries on', async () => {
    const { text } = await readStream(await withFault('malformed-chunk'));
    const payloads = answerPayloads(text);
    assert.equal(payloads[2], '{not json');
    assert.equal(payloads.filter((p) => p === '{not json').length, 1);
    assert.equal(joinedDelta(parsedChunks(text), 'content'), defaultText);
    assert.equal(payloads.at(-1), '[DONE]');
  });

  it('no-done sends the whole text but no finish_reason and no [DONE]', async () => {
    const res = await postChat(server().url, { ...streamed, stream_options: { include_usage: true } }, { 'x-fake-fault': 'no-done' });
    const { text, error } = await readStream(res);
    assert.equal(error, undefined, 'the response ends cleanly');
    const chunks = parsedChunks(text);
    assert.equal(joinedDelta(chunks, 'content'), defaultText);
    assert.equal(chunks.some((c) => c.choices[0]?.finish_reason), false);
    assert.equal(dataPayloads(text).includes('[DONE]'), false);
  });

  it('reasoning-only answers in reasoning_content alone', async () => {
    const chunks = parsedChunks((await readStream(await withFault('reasoning-only'))).text);
    assert.equal(joinedDelta(chunks, 'reasoning_content'), defaultText);
    assert.equal(chunks.some((c) => c.choices[0]?.delta?.content !== undefined), false);
  });

  it('invalid-tool-json streams a tool call whose arguments are not JSON', async () => {
    const chunks = parsedChunks((await readStream(await withFault('invalid-tool-json'))).text);
    const args = toolArgumentPieces(chunks).join('');
    assert.equal(args, '{"path": "src/extension.ts", "startLine": }');
    assert.throws(() => JSON.parse(args));
    assert.equal(chunks.at(-1).choices[0].finish_reason, 'tool_calls');
  });

  it('think-tags puts <think>…</think> before the answer in the text', async () => {
    const chunks = parsedChunks((await readStream(await withFault('think-tags'))).text);
    const content = joinedDelta(chunks, 'content');
    assert.match(content, /^<think>[^<]+<\/think>Answer 1 to: tell me about faults/);
  });

  it('empty-stream sends only [DONE]', async () => {
    const res = await withFault('empty-stream');
    assert.equal(res.status, 200);
    assert.equal((await readStream(res)).text, 'data: [DONE]\n\n');
  });

  it('context-length-400 reports the given limit and the real prompt size', async () => {
    const res = await withFault({ name: 'context-length-400', limit: 10 });
    const prompt = new PrefixCacheModel().measure({ messages }).promptTokens;
    assert.equal(res.status, 400);
    const body = await jsonOf(res);
    assert.equal(body.error.code, 'context_length_exceeded');
    assert.equal(
      body.error.message,
      `This model's maximum context length is 10 tokens. However, your messages resulted in ${prompt} tokens. Please reduce the length of the messages.`,
    );
  });

  it('unsupported-param-400 names the refused parameter like OpenAI does', async () => {
    const res = await withFault(JSON.stringify({ name: 'unsupported-param-400', param: 'top_p' }));
    assert.equal(res.status, 400);
    assert.deepEqual(await res.json(), { error: { message: "Unsupported parameter: 'top_p' is not supported with this model.", type: 'invalid_request_error', code: 'unsupported_parameter', param: 'top_p' } });
  });

  it('missing-session-400 answers like OpenCode Go without a session header', async () => {
    const res = await withFault('missing-session-400');
    assert.equal(res.status, 400);
    assert.equal((await jsonOf(res)).error.code, 'MissingSessionID');
  });

  it('queued faults apply to the next requests in order, then replies are normal', async () => {
    server().enqueueFault({ name: 'status-429', seconds: 2 });
    server().enqueueFault({ name: 'status-502' });
    const first = await postChat(server().url, plain);
    const second = await postChat(server().url, plain);
    const third = await postChat(server().url, plain);
    assert.deepEqual([first.status, second.status, third.status], [429, 502, 200]);
    assert.equal(first.headers.get('retry-after'), '2');
  });

  it('rejects an unknown fault name', async () => {
    const res = await withFault('status-418');
    assert.equal(res.status, 400);
    assert.match((await jsonOf(res)).error.message, /Unknown fault "status-418"/);
    assert.throws(() => server().enqueueFault({ name: 'nope' as never }), /Unknown fault/);
  });
});
