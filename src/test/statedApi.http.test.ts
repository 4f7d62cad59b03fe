/**
 * Issue 32: a custom endpoint whose `/models` states each model's API (`api`) is not probed route by route: the
 * first request goes to the stated route. (Before, a Gemini model took 4 requests: chat, responses, messages,
 * then gemini.) The picker's tooltip says where the route came from.
 */
import * as assert from 'assert';
import { parseModelList } from '../core/models/parseModelList';
import { activateAgainst, ask, user } from './support/activatedExtension';
import { useActivated, useFakeServer } from './support/suiteHooks';

describe('a custom endpoint that states each model\'s API (real HTTP)', function () {
  this.timeout(30_000);
  const server = useFakeServer();
  const ext = useActivated(server, (s) => activateAgainst(s, {}));

  it('reads `api` (or `wire_api`) from /models; anything else is no statement', () => {
    const listed = parseModelList({ data: [{ id: 'a', api: 'gemini' }, { id: 'b', wire_api: 'responses' }, { id: 'c', api: 'grpc' }, { id: 'd' }] });
    assert.deepStrictEqual(listed.map((m) => m.api), ['gemini', 'responses', undefined, undefined]);
  });

  for (const [model, path] of [['fake-native-gemini', /^\/v1(beta)?\/models\/fake-native-gemini:streamGenerateContent/], ['fake-messages', /^\/v1\/messages/], ['fake-responses', /^\/v1\/responses/]] as const) {
    it(`${model}: one request, to the stated route`, async () => {
      const before = server().requests.filter((r) => r.method === 'POST').length;
      server().enqueueReply({ text: 'hello' });
      const answer = await ask(ext(), model, [user('hi')]);
      assert.strictEqual(answer.text, 'hello');
      const posts = server().requests.filter((r) => r.method === 'POST').slice(before);
      assert.strictEqual(posts.length, 1, posts.map((p) => p.path).join(', '));
      assert.match(posts[0].path, path);
      const info = (await ext().provider.provideLanguageModelChatInformation({ silent: true } as never, undefined as never)) ?? [];
      const tooltip = String(info.find((m) => m.id === model)?.tooltip);
      assert.match(tooltip, /Route (gemini|messages|responses) \((endpoint|learned)\)/);
    });
  }
});
