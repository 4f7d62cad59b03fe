/** The fake OpenCode server over real loopback HTTP: catalogue, replies, streaming, cache, errors, recording. */
import * as assert from 'node:assert/strict';
import OpenAI from 'openai';
import { startFakeServer } from '../fakeServer/server';
import { PrefixCacheModel } from '../cacheModel/prefixCache';
import { answerPayloads, dataPayloads, jsonOf, joinedDelta, parsedChunks, postChat, readStream, toolArgumentPieces } from '../fakeServer/client';
import { useFakeServer } from './support/suiteHooks';

const hello = { model: 'fake-large', messages: [{ role: 'user', content: 'hello there' }] };

describe('fake server: HTTP basics', () => {
  const server = useFakeServer();

  it('serves the model catalogue in the OpenAI list shape', async () => {
    assert.match(server().url, /^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const res = await fetch(`${server().url}/models`);
    const body = (await res.json()) as { object: string; data: unknown[] };
    assert.equal(res.status, 200);
    assert.equal(body.object, 'list');
    assert.deepEqual(body.data[0], {
      id: 'fake-large',
      object: 'model',
      owned_by: 'fake',
      context_length: 1_000_000,
      max_output_tokens: 32_000,
      capabilities: { tool_calling: true, image_input: false },
      api: 'chat',
    });
    assert.deepEqual(
      body.data.map((m) => (m as { id: string }).id),
      ['fake-large', 'fake-small', 'fake-vision', 'fake-responses', 'fake-messages', 'fake-native-gemini', 'fake-limited', 'gpt-5.4-mini'],
    );
  });

  it('answers non-streaming requests with the deterministic default reply and usage', async () => {
    const first = await jsonOf(await postChat(server().url, hello));
    const second = await jsonOf(await postChat(server().url, hello));
    assert.equal(first.object, 'chat.completion');
    assert.match(first.choices[0].message.content, /^Answer 1 to: hello there river stone/);
    assert.equal(first.choices[0].message.content, second.choices[0].message.content);
    assert.equal(first.choices[0].finish_reason, 'stop');
    const expectedPrompt = new PrefixCacheModel().measure(hello).promptTokens;
    assert.deepEqual(first.usage, {
      prompt_tokens: expectedPrompt,
      completion_tokens: 40,
      total_tokens: expectedPrompt + 40,
      prompt_tokens_details: { cached_tokens: 0 },
    });
  });

  it('streams through the real openai SDK, usage chunk last', async () => {
    const client = new OpenAI({ baseURL: server().url, apiKey: 'x', maxRetries: 0 });
    const stream = await client.chat.completions.create({
      model: 'fake-large',
      messages: [{ role: 'user', content: 'stream please' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    const finishReasons: string[] = [];
    let usage: OpenAI.CompletionUsage | undefined | null;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      if (chunk.choices[0]?.finish_reason) finishReasons.push(chunk.choices[0].finish_reason);
      if (chunk.usage) usage = chunk.usage;
    }
    assert.match(text, /^Answer 1 to: stream please river/);
    assert.deepEqual(finishReasons, ['stop']);
    assert.equal(usage?.completion_tokens, 40);
    assert.equal(usage?.prompt_tokens_details?.cached_tokens, 0);
  });

  it('streams tool-call arguments split over several chunks, and reasoning deltas', async () => {
    const args = '{"path":"src/extension.ts","line":12}';
    const reply = { reasoning: 'I should read the file.', toolCalls: [{ name: 'read_file', arguments: args }] };
    const res = await postChat(server().url, { ...hello, stream: true }, { 'x-fake-reply': JSON.stringify(reply) });
    const { text, error } = await readStream(res);
    assert.equal(error, undefined);
    const chunks = parsedChunks(text);
    assert.equal(joinedDelta(chunks, 'reasoning_content'), 'I should read the file.');
    assert.equal(joinedDelta(chunks, 'content'), '');
    const pieces = toolArgumentPieces(chunks);
    assert.equal(pieces.length, 5);
    assert.equal(pieces.join(''), args);
    const header = chunks.find((c) => c.choices[0]?.delta.tool_calls?.[0]?.function?.name);
    assert.deepEqual(header.choices[0].delta.tool_calls[0], {
      index: 0,
      id: `call_fake_0_0`,
      type: 'function',
      function: { name: 'read_file', arguments: '' },
    });
    assert.equal(chunks[chunks.length - 1].choices[0].finish_reason, 'tool_calls');
    assert.equal(answerPayloads(text).at(-1), '[DONE]');
    assert.deepEqual(JSON.parse(dataPayloads(text).at(-1) as string).choices, [], 'then OpenCode\'s cost chunk, as the gateway appends it');
    assert.equal(chunks.some((c) => c.usage), false, 'no usage chunk unless include_usage');
  });

  it('reports cached tokens per session header', async () => {
    const messages = [{ role: 'system', content: 'Be brief. '.repeat(100) }, { role: 'user', content: 'first' }];
    const session = { 'x-opencode-session': 'ses-1' };
    const first = await jsonOf(await postChat(server().url, { model: 'fake-large', messages }, session));
    const grown = { model: 'fake-large', messages: [...messages, { role: 'assistant', content: 'ok' }, { role: 'user', content: 'next' }] };
    const second = await jsonOf(await postChat(server().url, grown, session));
    const noSession = await jsonOf(await postChat(server().url, grown));
    const otherSession = await jsonOf(await postChat(server().url, grown, { 'x-opencode-session': 'ses-2' }));
    assert.equal(first.usage.prompt_tokens_details.cached_tokens, 0);
    assert.equal(second.usage.prompt_tokens_details.cached_tokens, Math.floor(first.usage.prompt_tokens / 64) * 64);
    assert.ok(second.usage.prompt_tokens_details.cached_tokens >= 192);
    assert.equal(noSession.usage.prompt_tokens_details.cached_tokens, 0);
    assert.equal(otherSession.usage.prompt_tokens_details.cached_tokens, 0);
  });

  it('picks the usage shape by header, then model, then server option', async () => {
    const deepseek = await jsonOf(await postChat(server().url, hello, { 'x-fake-usage-shape': 'deepseek' }));
    assert.deepEqual(Object.keys(deepseek.usage).sort(), [
      'completion_tokens',
      'prompt_cache_hit_tokens',
      'prompt_cache_miss_tokens',
      'prompt_tokens',
      'total_tokens',
    ]);
    assert.equal(deepseek.usage.prompt_cache_miss_tokens, deepseek.usage.prompt_tokens);

    const shaped = await startFakeServer({
      usageShape: 'anthropic',
      models: [
        { id: 'claude-ish', contextWindow: 200_000, maxOutputTokens: 8_000 },
        { id: 'ds-ish', contextWindow: 64_000, maxOutputTokens: 8_000, usageShape: 'deepseek' },
      ],
    });
    try {
      const messages = hello.messages;
      const anthropic = await jsonOf(await postChat(shaped.url, { model: 'claude-ish', messages }));
      const prompt = new PrefixCacheModel().measure({ messages }).promptTokens;
      assert.deepEqual(anthropic.usage, { input_tokens: prompt, output_tokens: 40, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 });
      const byModel = await jsonOf(await postChat(shaped.url, { model: 'ds-ish', messages }));
      assert.equal(byModel.usage.prompt_cache_miss_tokens, prompt);
    } finally {
      await shaped.close();
    }
  });

  it('answers an unknown model with a 404 model_not_found error', async () => {
    const res = await postChat(server().url, { ...hello, model: 'nope' });
    assert.equal(res.status, 404);
    assert.deepEqual(await res.json(), {
      error: { message: 'The model `nope` does not exist', type: 'invalid_request_error', code: 'model_not_found' },
    });
  });

  it('answers a prompt above the window with a 400 context_length_exceeded', async () => {
    const messages = [{ role: 'user', content: 'lorem ipsum dolor sit amet '.repeat(2_000) }];
    const promptTokens = new PrefixCacheModel().measure({ messages }).promptTokens;
    assert.ok(promptTokens > 8_192);
    const res = await postChat(server().url, { model: 'fake-small', messages });
    assert.equal(res.status, 400);
    assert.deepEqual(await res.json(), {
      error: {
        message: `This model's maximum context length is 8192 tokens. However, your messages resulted in ${promptTokens} tokens. Please reduce the length of the messages.`,
        type: 'invalid_request_error',
        code: 'context_length_exceeded',
      },
    });
  });

  it('records method, path, headers and the parsed body of every request', async () => {
    await (await postChat(server().url, hello, { 'x-opencode-session': 'ses-rec' })).text();
    await (await fetch(`${server().url}/models`)).text();
    assert.equal(server().requests.length, 2);
    const [chat, models] = server().requests;
    assert.equal(chat.method, 'POST');
    assert.equal(chat.path, '/v1/chat/completions');
    assert.deepEqual(chat.body, hello);
    assert.equal(chat.headers['x-opencode-session'], 'ses-rec');
    assert.equal(chat.closedEarly, false);
    assert.equal(models.path, '/v1/models');
    assert.equal(models.body, undefined);
  });

  it('marks closedEarly when the client aborts mid-stream', async () => {
    const controller = new AbortController();
    const res = await postChat(server().url, { ...hello, stream: true }, { 'x-fake-fault': 'stall' }, controller.signal);
    const reader = res.body!.getReader();
    const first = await reader.read();
    assert.match(new TextDecoder().decode(first.value), /"role":"assistant"/);
    controller.abort();
    await server().whenRequestClosed(0);
    assert.equal(server().requests[0].closedEarly, true);
  });

  it('queues scripted replies; the x-fake-reply header wins over the queue', async () => {
    server().enqueueReply({ text: 'queued one' });
    const viaHeader = await jsonOf(await postChat(server().url, hello, { 'x-fake-reply': '{"text":"from header"}' }));
    const viaQueue = await jsonOf(await postChat(server().url, hello));
    const fallback = await jsonOf(await postChat(server().url, hello));
    assert.equal(viaHeader.choices[0].message.content, 'from header');
    assert.equal(viaQueue.choices[0].message.content, 'queued one');
    assert.match(fallback.choices[0].message.content, /^Answer 1 to: hello there/);
  });

  it('rejects a malformed directive header with a 400', async () => {
    const res = await postChat(server().url, hello, { 'x-fake-reply': '{not json' });
    assert.equal(res.status, 400);
    const badShape = await postChat(server().url, hello, { 'x-fake-usage-shape': 'gemini' });
    assert.equal(badShape.status, 400);
  });

  it('can be scripted and inspected out of process through /_control', async () => {
    const base = server().url.replace(/\/v1$/, '');
    const post = (path: string, body: unknown) =>
      fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    assert.equal((await post('/_control/reply', { text: 'scripted remotely' })).status, 200);
    assert.equal((await post('/_control/fault', { name: 'status-503' })).status, 200);
    assert.equal((await post('/_control/fault', { name: 'no-such-fault' })).status, 400);
    assert.equal((await postChat(server().url, hello)).status, 503);
    const ok = await jsonOf(await postChat(server().url, hello));
    assert.equal(ok.choices[0].message.content, 'scripted remotely', 'the 503 did not consume the queued reply');
    const recorded = await jsonOf(await fetch(`${base}/_control/requests`));
    assert.equal(recorded.length, 2);
    assert.deepEqual(recorded[1].body, hello);
    await post('/_control/reset', {});
    assert.equal(server().requests.length, 0);
  });
});

describe('fake server: options', () => {
  it('requires the configured key', async () => {
    const server = await startFakeServer({ requireKey: 'sk-right' });
    try {
      const wrong = await postChat(server.url, hello, { authorization: 'Bearer sk-wrong' });
      assert.equal(wrong.status, 401);
      assert.deepEqual(await wrong.json(), { error: { message: 'Invalid API key', type: 'authentication_error' } });
      assert.equal((await postChat(server.url, hello)).status, 401);
      assert.equal((await fetch(`${server.url}/models`)).status, 401);
      assert.equal((await postChat(server.url, hello, { authorization: 'Bearer sk-right' })).status, 200);
    } finally {
      await server.close();
    }
  });

  it('enforces the session header only when asked to', async () => {
    const server = await startFakeServer({ requireSession: true });
    try {
      const res = await postChat(server.url, hello);
      assert.equal(res.status, 400);
      assert.equal((await jsonOf(res)).error.code, 'MissingSessionID');
      assert.equal((await postChat(server.url, hello, { 'x-opencode-session': 's' })).status, 200);
    } finally {
      await server.close();
    }
  });

  it('waits replyDelayMs before a reply starts', async () => {
    const server = await startFakeServer({ replyDelayMs: 200 });
    try {
      const started = Date.now();
      assert.equal((await postChat(server.url, hello)).status, 200);
      assert.ok(Date.now() - started >= 150, `replied after only ${Date.now() - started} ms`);
    } finally {
      await server.close();
    }
  });

  it('only binds loopback', async () => {
    await assert.rejects(startFakeServer({ host: '0.0.0.0' }), /only binds loopback/);
  });
});
