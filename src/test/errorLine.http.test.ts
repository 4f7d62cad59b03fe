/**
 * The `[error]` line and the chat sentence after the retries run out: the server's
 * words reach them as a short redacted excerpt, never as a whole HTML page or a body of many kilobytes. Over real
 * HTTP through the activated extension, against a gateway that answers with such bodies.
 */
import * as assert from 'assert';
import * as http from 'http';
import type { AddressInfo } from 'net';
import fc from 'fast-check';
import { errorLogLine, unexpectedErrorMessage } from '../core/request/userFacingError';
import { ERROR_DETAIL_MAX } from '../core/util/excerpt';
import * as double from './support/vscodeDouble';
import { activateAgainst, user } from './support/activatedExtension';
import { runs } from './support/propertyRuns';

/** The sentence, the excerpt's "… (N characters in all)" and the model id fit in this much. */
const LINE_MAX = 2 * ERROR_DETAIL_MAX + 200;
const KEY = 'sk-LONGBODY-abcdefghijklmnop';

const bodies: Record<string, { status: number; type: string; body: string }> = {
  'html-502': { status: 502, type: 'text/html', body: `<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1>${'<p>nginx upstream error page filler</p>\n'.repeat(120)}</body></html>` },
  'html-400': { status: 400, type: 'text/html', body: `<html><body><h1>Bad request</h1>${'<div>proxy says no</div>\n'.repeat(200)}</body></html>` },
  'long-json-400': { status: 400, type: 'application/json', body: JSON.stringify({ error: { message: `invalid request: ${'x'.repeat(190)} Bearer ${KEY} ${'detail '.repeat(3000)}` } }) },
  'long-json-500': { status: 500, type: 'application/json', body: JSON.stringify({ error: { message: `internal: ${'trace line\n'.repeat(2000)}` } }) },
};

describe('[error] line after retries run out: a short redacted excerpt', function () {
  let server: http.Server;
  let url: string;
  let current = 'html-502';
  before(async () => {
    server = http.createServer((req, res) => {
      req.resume();
      const reply = bodies[current];
      res.writeHead(reply.status, { 'content-type': reply.type });
      res.end(reply.body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  for (const name of Object.keys(bodies)) {
    it(`${name}: the chat sentence and the [error] line quote a short excerpt, no markup, no key`, async () => {
      current = name;
      const ext = activateAgainst({ url }, { maxRetries: 0 });
      try {
        await ext.context.secrets.store('opencode.apiKey', KEY);
        const model = { id: 'm1', name: 'm1', family: 'x', version: '1', maxInputTokens: 10_000, maxOutputTokens: 1_000, capabilities: {} };
        const token = new double.CancellationTokenSource().token as never;
        const thrown = await ext.provider.provideLanguageModelChatResponse(model, [user('hi')], { toolMode: 1 } as never, { report: () => undefined }, token).then(
          () => assert.fail('the request should fail'),
          (e: Error) => e.message,
        );
        const line = ext.log.lines.find((l) => l.message.startsWith('[error]'))?.message;
        assert.ok(line, `an [error] line in ${ext.log.text().slice(0, 500)}`);
        for (const [what, text] of [['sentence', thrown], ['[error] line', line]] as const) {
          assert.ok(text.length < LINE_MAX, `${what}: ${text.length} characters: ${text.slice(0, 300)}…`);
          assert.doesNotMatch(text, /<(?:p|div|html|body|h1)\b|\n/, what);
          assert.ok(!text.includes('LONGBODY'), `${what} carries the key`);
        }
      } finally {
        ext.dispose();
      }
    });
  }

  it('property: any error, of any length and content, gives a bounded one-line [error] head and chat message', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 20_000 }), fc.boolean(), (message, asError) => {
        const error = asError ? new Error(message) : message;
        const shown = unexpectedErrorMessage(error);
        const head = errorLogLine('m', error).split('\n')[0];
        assert.ok(shown.length <= ERROR_DETAIL_MAX + 40, `${shown.length}`);
        assert.ok(head.length <= ERROR_DETAIL_MAX + 80, `${head.length}`);
      }),
      { numRuns: runs(200) },
    );
  });
});
