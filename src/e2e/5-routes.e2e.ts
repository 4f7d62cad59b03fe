/**
 * One model per route through vscode.lm: fake-large (Chat Completions), fake-responses (Responses) and
 * fake-messages (Anthropic Messages). The profile sets no opencode.models and a loopback endpoint has no
 * route table, but the fake server's /models states each model's API, so each model is sent straight to its
 * route (no probing, no [route] line), and a [usage] line is written for each answer in the REAL OpenCode.log on disk.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import { ask, model, openCodeLogFile, readLog, recordedRequests, resetFake, waitFor } from './support';

const ROUTES = [
  { id: 'fake-large', path: '/v1/chat/completions' },
  { id: 'fake-responses', path: '/v1/responses' },
  { id: 'fake-messages', path: '/v1/messages' },
];

describe('every route answers through vscode.lm', function () {
  this.timeout(120_000);

  for (const route of ROUTES) {
    it(`${route.id} answers on ${route.path}, with a [usage] line in OpenCode.log`, async () => {
      await resetFake();
      const chat = await model(route.id);
      const file = openCodeLogFile();
      const offset = file ? readLog(file).length : 0;
      const text = await ask(chat, [vscode.LanguageModelChatMessage.User(`Hello over ${route.path}`)]);
      assert.match(text, new RegExp(`Hello over ${route.path.replace(/\//g, '\\/')}`));
      const paths = (await recordedRequests()).map((r) => (r as unknown as { path?: string }).path).filter((p) => p && p !== '/v1/models');
      assert.strictEqual(paths.at(-1), route.path, `requests went to ${paths.join(', ')}`);
      const logged = await waitFor(() => {
        const now = openCodeLogFile();
        const tail = now ? readLog(now).slice(now === file ? offset : 0) : '';
        return /\[usage\] prompt=\d+/.test(tail) ? tail : undefined;
      });
      assert.ok(logged, `no [usage] line for ${route.id}`);
      const usage = /\[usage\] prompt=(\d+) .*cacheHit=([\d.]+)%/.exec(logged)!;
      console.log(`# ${route.id}: ${route.path} ${usage[0]}`);
      assert.ok(Number(usage[1]) > 0);
      assert.deepStrictEqual(paths, [route.path], 'one request, straight to the route /models states');
      assert.ok(!/\[route\] model=/.test(logged), 'no route was probed');
      assert.ok(!/rejected the API key/.test(logged), 'the wrong-route 401 never becomes a key error');
    });
  }
});
