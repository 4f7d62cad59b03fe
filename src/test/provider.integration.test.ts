/** The provider against the fake server over real HTTP, through the real `openai` SDK. */
import * as assert from 'assert';
import { startFakeServer } from '../fakeServer';
import * as double from './support/vscodeDouble';
import { activateAgainst, ask, assistant, user, userParts } from './support/activatedExtension';
import { useActivated, useFakeServer } from './support/suiteHooks';

describe('provider over real HTTP (fake server)', () => {
  const server = useFakeServer();
  const ext = useActivated(server, activateAgainst);

  it('lists the endpoint models with honest limits and capabilities', async () => {
    const models = await ext().provider.provideLanguageModelChatInformation({ silent: true }, new double.CancellationTokenSource().token as never);
    const large = models?.find((m) => m.id === 'fake-large');
    assert.ok(large);
    // budget = window − min(20,000 reserve, max output 32,000) = 980,000, reported as the input limit.
    assert.strictEqual(large.maxInputTokens, 980_000);
    // VS Code shows input + output as the model's context: never more than the window.
    assert.strictEqual(large.maxOutputTokens, 20_000);
    // Text-only, but fake-vision on the same endpoint describes its images (core/request/describeImages.ts), so chat may attach one.
    assert.deepStrictEqual(large.capabilities, { toolCalling: true, imageInput: true });
    assert.strictEqual(models?.find((m) => m.id === 'fake-vision')?.capabilities.imageInput, true);
    assert.strictEqual(new Set(models?.map((m) => m.id)).size, models?.length, 'no duplicates');
  });

  it('streams text back and writes a [usage] line', async () => {
    server().enqueueReply({ text: 'Hello  there,\n  world ', chunkSize: 3 });
    const { text } = await ask(ext(), 'fake-large', [user('hi')]);
    assert.strictEqual(text, 'Hello  there,\n  world ');
    const body = server().requests.at(-1)?.body;
    assert.strictEqual(body.stream, true);
    assert.deepStrictEqual(body.stream_options, { include_usage: true });
    assert.match(ext().log.text(), /\[usage\] prompt=\d+ completion=\d+ total=\d+ cached=0 cacheHit=0\.0%/);
  });

  it('sends the OpenCode headers: a stable session per conversation and a fresh request id', async () => {
    await ask(ext(), 'fake-large', [user('task A')]);
    await ask(ext(), 'fake-large', [user('task A'), assistant('ok'), user('more')]);
    await ask(ext(), 'fake-large', [user('task B')]);
    const [a1, a2, b] = server().requests.filter((r) => r.path.endsWith('/chat/completions')).map((r) => r.headers);
    assert.strictEqual(a1['x-opencode-session'], a2['x-opencode-session']);
    assert.notStrictEqual(a1['x-opencode-session'], b['x-opencode-session']);
    assert.notStrictEqual(a1['x-opencode-request'], a2['x-opencode-request']);
  });

  it('reports a tool call with the id the server gave and sends it back with VS Code\'s ids', async () => {
    server().enqueueReply({ toolCalls: [{ id: 'call_srv_1', name: 'read_file', arguments: '{"path":"src/a.ts"}' }] });
    const first = await ask(ext(), 'fake-large', [user('read a.ts')], { tools: [{ name: 'read_file', description: 'Read a file', inputSchema: { type: 'object' } }] });
    const call = first.parts.find((p) => p instanceof double.LanguageModelToolCallPart) as double.LanguageModelToolCallPart;
    assert.deepStrictEqual([call.callId, call.name, call.input], ['call_srv_1', 'read_file', { path: 'src/a.ts' }]);
    server().enqueueReply({ text: 'It declares a.' });
    const second = await ask(ext(), 'fake-large', [
      user('read a.ts'),
      assistant([new double.LanguageModelToolCallPart('call_srv_1', 'read_file', { path: 'src/a.ts' })]),
      userParts([new double.LanguageModelToolResultPart('call_srv_1', [new double.LanguageModelTextPart('export const a = 1;')])]),
    ]);
    assert.strictEqual(second.text, 'It declares a.');
    const sent = server().requests.at(-1)?.body.messages;
    assert.deepStrictEqual(sent.slice(1), [
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_srv_1', type: 'function', function: { name: 'read_file', arguments: '{"path":"src/a.ts"}' } }] },
      { role: 'tool', tool_call_id: 'call_srv_1', content: 'export const a = 1;' },
    ]);
  });

  for (const shape of ['openai', 'deepseek', 'anthropic'] as const) {
    it(`writes a correct [usage] line for ${shape}-shaped usage, with cache hits on the second turn`, async () => {
      const shaped = await startFakeServer({ usageShape: shape });
      const shapedExt = activateAgainst(shaped);
      try {
        const history = [user(`Please summarise ${'the design document '.repeat(300)}`)];
        await ask(shapedExt, 'fake-large', history);
        await ask(shapedExt, 'fake-large', [...history, assistant('First answer.'), user('and the risks?')]);
        const line = shapedExt.log.lines.map((l) => l.message).filter((m) => m.startsWith('[usage]')).at(-1) ?? '';
        const match = /^\[usage\] prompt=(\d+) completion=(\d+) total=(\d+) cached=(\d+) cacheHit=(\d+\.\d)%( cost=\$\d+\.\d{4,6})?( purpose=side)?$/.exec(line);
        assert.ok(match, line);
        const [prompt, completion, total, cached, hit] = match.slice(1).map(Number);
        assert.strictEqual(total, prompt + completion);
        assert.ok(cached > 0 && cached < prompt, `cached ${cached} of ${prompt}`);
        assert.strictEqual(cached % 64, 0, 'the fake cache counts in 64-token blocks');
        assert.strictEqual(hit, Math.round((cached / prompt) * 1000) / 10);
      } finally {
        shapedExt.dispose();
        await shaped.close();
      }
    });
  }

  it('reports usage last, as a `usage` data part chat can read', async () => {
    const { parts } = await ask(ext(), 'fake-large', [user('hi')]);
    const last = parts.at(-1) as double.LanguageModelDataPart;
    assert.ok(last instanceof double.LanguageModelDataPart);
    assert.strictEqual(last.mimeType, 'usage');
    const payload = JSON.parse(Buffer.from(last.data).toString('utf8'));
    assert.deepStrictEqual(Object.keys(payload).sort(), ['completion_tokens', 'prompt_tokens', 'prompt_tokens_details', 'total_tokens']);
  });

  it('shows reasoning as thinking when VS Code has LanguageModelThinkingPart, and hides it otherwise', async () => {
    server().enqueueReply({ reasoning: 'step by step', text: 'Answer.' });
    const shown = await ask(ext(), 'fake-large', [user('q')]);
    assert.ok(shown.parts.some((p) => p instanceof double.LanguageModelThinkingPart));
    const saved = (double as Record<string, unknown>).LanguageModelThinkingPart;
    delete (double as Record<string, unknown>).LanguageModelThinkingPart;
    try {
      server().enqueueReply({ reasoning: 'step by step', text: 'Answer.' });
      const hidden = await ask(ext(), 'fake-large', [user('q')]);
      assert.strictEqual(hidden.text, 'Answer.');
      assert.ok(!hidden.parts.some((p) => (p as object).constructor?.name === 'LanguageModelThinkingPart'));
    } finally {
      (double as Record<string, unknown>).LanguageModelThinkingPart = saved;
    }
  });

  it('never forwards unknown modelOptions', async () => {
    await ask(ext(), 'fake-large', [user('q')], { modelOptions: { temperature: 0.2, _capturingTokenCorrelationId: 'x', _otelTraceContext: {} } });
    const body = server().requests.at(-1)?.body;
    assert.strictEqual(body.temperature, 0.2);
    assert.ok(!('_capturingTokenCorrelationId' in body) && !('_otelTraceContext' in body));
  });

  it('aborts the HTTP request at once when cancelled mid-stream', async () => {
    server().enqueueReply({ text: 'x'.repeat(400), chunkSize: 4, delayMsBetweenChunks: 20 });
    const source = new double.CancellationTokenSource();
    let seen = 0;
    await ask(ext(), 'fake-large', [user('long answer please')], {}, source.token as never, () => {
      if (++seen === 3) source.cancel();
    });
    const index = server().requests.length - 1;
    await server().whenRequestClosed(index);
    // The server's own record is the proof (no clock): the client closed the connection before the last chunk.
    assert.ok(server().requests[index].closedEarly, 'the server saw the connection close before the reply ended');
  });
});

describe('provider without a key', () => {
  it('tells the user exactly how to set a key when the endpoint is not loopback', async () => {
    // A gateway in front of Zen (opencode.endpointCatalog): Zen's ids are listed before any key is set.
    const ext = activateAgainst({ url: 'https://example.invalid/v1' }, { endpointCatalog: 'zen' });
    const saved = process.env.OPENCODE_API_KEY;
    delete process.env.OPENCODE_API_KEY;
    try {
      const model = { id: 'kimi-k2', name: 'kimi-k2', family: 'kimi-k2', version: '1', maxInputTokens: 1000, maxOutputTokens: 100, capabilities: {} };
      await assert.rejects(
        async () => ext.provider.provideLanguageModelChatResponse(model, [user('hi')], { toolMode: 1 } as never, { report: () => undefined }, new double.CancellationTokenSource().token as never),
        /No OpenCode API key is set for https:\/\/example\.invalid\/v1\. Run the command "OpenCode: Set API Key"/,
      );
      const models = await ext.provider.provideLanguageModelChatInformation({ silent: true }, new double.CancellationTokenSource().token as never);
      assert.ok(models?.some((m) => m.id === 'claude-sonnet-4-5'), "the catalogue's models are listed, so a pick leads to the key message");
      assert.strictEqual(ext.log.text().includes('[models]'), false, 'silent discovery did not call the network without a key');
    } finally {
      if (saved !== undefined) process.env.OPENCODE_API_KEY = saved;
      ext.dispose();
    }
  });
});

describe('reasoning passed back on tool-call turns (DeepSeek-style reasoners)', () => {
  const server = useFakeServer();

  it('puts the reasoning back on a tool-call message whose thinking the history lost, also after a restart', async () => {
    const state = new double.MemoryMemento();
    const first = activateAgainst(server(), {}, state);
    const tools = [{ name: 'read_file', description: 'Read a file', inputSchema: { type: 'object' } }];
    try {
      server().enqueueReply({ reasoning: 'I need to look at a.ts first.', toolCalls: [{ id: 'call_r1', name: 'read_file', arguments: '{"path":"a.ts"}' }] });
      await ask(first, 'fake-large', [user('fix a.ts')], { tools });
    } finally {
      first.dispose();
    }
    const second = activateAgainst(server(), {}, state);
    try {
      // VS Code hands the history back without the thinking part.
      await ask(second, 'fake-large', [
        user('fix a.ts'),
        assistant([new double.LanguageModelToolCallPart('call_r1', 'read_file', { path: 'a.ts' })]),
        userParts([new double.LanguageModelToolResultPart('call_r1', [new double.LanguageModelTextPart('const a = 1;')])]),
      ], { tools });
      const sent = server().requests.at(-1)?.body.messages;
      assert.strictEqual(sent[1].reasoning_content, 'I need to look at a.ts first.');
      assert.strictEqual(sent[1].tool_calls[0].id, 'call_r1');
    } finally {
      second.dispose();
    }
  });
});
