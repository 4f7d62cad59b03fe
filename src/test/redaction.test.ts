/**
 * A key with a control character is refused when stored and read, a transport or
 * server message that quotes a key is redacted before it reaches chat or the log, and a base URL with
 * credentials or a query is refused and never shown verbatim.
 */
import * as assert from 'assert';
import * as http from 'http';
import type { AddressInfo } from 'net';
import fc from 'fast-check';
import { APIConnectionError, APIError } from 'openai';
import { resolveSettings } from '../core/config/settings';
import { apiKeyProblem } from '../core/request/apiKeyFormat';
import { retryLine, truncationLine } from '../core/request/streamLog';
import { StreamInterruptedError } from '../core/request/streamErrors';
import { errorDetail, toUserFacingError } from '../core/request/userFacingError';
import { redact, redactUrl } from '../core/util/redact';
import * as double from './support/vscodeDouble';
import { activateAgainst, ask, user, type ActivatedExtension } from './support/activatedExtension';
import { runs } from './support/propertyRuns';

/** Random keys: printable ASCII with control characters, spaces and newlines mixed in. */
const keyChars = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz0123456789-_'.split('')) },
  { weight: 1, arbitrary: fc.constantFrom('\n', '\r', '\u0000', '\t', ' ', '\u007f', '\u001b') },
);
const randomKey = fc.array(keyChars, { minLength: 20, maxLength: 60 }).map((chars) => `sk-${chars.join('')}`);

/** The pieces of a key a message could carry: the key, and every stretch of it between control characters. */
function keyPieces(key: string): string[] {
  // eslint-disable-next-line no-control-regex -- splitting at control characters is the point
  return [key, ...key.split(/[\u0000-\u001f\u007f\s]+/).filter((piece) => piece.length >= 10)];
}

/** Every shape in which a transport, the SDK or a server can quote the key back. */
function errorsQuoting(key: string): unknown[] {
  const header = `Bearer ${key}`;
  const undici = new TypeError(`Headers.append: ${JSON.stringify(header)} is an invalid header value.`);
  return [
    undici,
    new APIConnectionError({ message: 'Connection error.', cause: undici }),
    new APIError(400, { message: `Invalid header Authorization: ${header}` }, undefined, new Headers()),
    new APIError(401, { message: `Incorrect API key provided: ${key}` }, undefined, new Headers()),
    new APIError(422, { message: `bad key=${encodeURIComponent(key)} in https://u:${key}@host/v1?key=${key}` }, undefined, new Headers()),
    new APIError(undefined, { message: `stream error for ${header}` }, undefined, new Headers()),
    new Error(`raw ${key}`),
    StreamInterruptedError.from(new Error(`socket closed after ${header}`)),
  ];
}

describe('redaction: keys and URL secrets never reach chat or the log', function () {
  this.timeout(30_000);

  it('redact-unit: masks Bearer tokens, sk- keys, URL userinfo and secret query values', () => {
    const out = redact('Bearer abc.def sk-live_1234567 https://bob:hunter2@h/v1?key=K1&model=m&api_key=K2 {"x-api-key":"K3"}');
    for (const secret of ['abc.def', '1234567', 'hunter2', 'K1', 'K2', 'K3']) assert.ok(!out.includes(secret), `${secret} in ${out}`);
    assert.ok(out.includes('model=m'), 'a harmless parameter stays');
    assert.strictEqual(redactUrl('https://opencode.ai/zen/v1'), 'https://opencode.ai/zen/v1');
    const plain = 'This model\'s maximum context length is 8192 tokens. Token limit reached; basic request failed at https://opencode.ai/zen/v1/chat/completions?model=x';
    assert.strictEqual(redact(plain), plain, 'ordinary error text is left alone');
    const unreachable = toUserFacingError(new APIConnectionError({ message: 'Connection error.' }), { baseUrl: 'https://bob:hunter2@gw.example/v1?key=hunter3', model: 'm' });
    assert.match(unreachable.message, /^Could not reach https:\/\/\[redacted\]@gw\.example\/v1\?key=\[redacted\]\./);
  });

  it('key-fuzz-every-error-path: a random key quoted by any error never appears in a sentence, detail or log line', () => {
    fc.assert(
      fc.property(randomKey, (key) => {
        for (const error of errorsQuoting(key)) {
          const shown = toUserFacingError(error, { baseUrl: 'https://gateway.example/v1', model: 'm', apiKey: key });
          const lines = [shown.message, shown.detail, `[error] m: ${shown.message} (${shown.detail})`, retryLine('m', error, 2, 3, 10), truncationLine(error, 'm'), errorDetail(error)];
          for (const line of lines.slice(0, 3)) for (const piece of keyPieces(key)) assert.ok(!line.includes(piece), `key piece ${JSON.stringify(piece)} in ${JSON.stringify(line)}`);
          // Lines built without the key at hand still hide every sendable key (one that passed validation).
          if (apiKeyProblem(key) === undefined) for (const line of lines.slice(3)) assert.ok(!line.includes(key) && !line.includes(JSON.stringify(key).slice(1, -1)), `key in ${JSON.stringify(line)}`);
        }
      }),
      { numRuns: runs(200) },
    );
  });

  it('key-validation: a key with a control character, a space or non-ASCII is refused without quoting it', () => {
    fc.assert(
      fc.property(randomKey, (key) => {
        const problem = apiKeyProblem(key.trim());
        assert.strictEqual(problem === undefined, /^[\x21-\x7e]+$/.test(key.trim()));
        if (problem) assert.ok(!problem.includes(key.trim().slice(3, 13)));
      }),
    );
    assert.match(String(apiKeyProblem('sk-abc\ndef')), /control character/);
    assert.match(String(apiKeyProblem('sk-abc def')), /space/);
  });

  it('base-url-credentials-refused: userinfo and query strings fall back to the preset; the warning is redacted', () => {
    for (const url of ['https://bob:hunter2@gw.example/v1', 'https://gw.example/v1?key=hunter2', 'https://gw.example/v1?api_key=hunter2&x=1', 'https://gw.example/v1#hunter2']) {
      const warnings: string[] = [];
      const settings = resolveSettings((key) => (key === 'baseUrl' ? url : undefined), (w) => warnings.push(w));
      assert.strictEqual(settings.baseUrl, 'https://opencode.ai/zen/go/v1', url);
      assert.strictEqual(warnings.length, 1);
      assert.match(warnings[0], /cannot be sent safely .*; using the go preset/);
      if (!url.includes('#')) assert.ok(!warnings[0].includes('hunter2'), warnings[0]);
    }
  });

  describe('over real HTTP', () => {
    let server: http.Server;
    let url: string;
    let echoStatus = 400;
    before(async () => {
      // A hostile gateway: quotes the Authorization header it received in every error.
      server = http.createServer((req, res) => {
        req.resume();
        const auth = String(req.headers.authorization);
        if (req.url?.endsWith('/models')) {
          res.writeHead(403, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: { message: `forbidden for ${auth}` } }));
          return;
        }
        res.writeHead(echoStatus, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `you sent ${auth} and ${auth.replace('Bearer ', '')}` } }));
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    });
    after(() => new Promise<void>((resolve) => server.close(() => resolve())));

    async function run(ext: ActivatedExtension, key: string): Promise<string> {
      await ext.context.secrets.store('opencode.apiKey', key);
      const model = { id: 'm1', name: 'm1', family: 'x', version: '1', maxInputTokens: 10_000, maxOutputTokens: 1_000, capabilities: {} };
      const token = new double.CancellationTokenSource().token as never;
      const thrown = await ext.provider.provideLanguageModelChatResponse(model, [user('hi')], { toolMode: 1 } as never, { report: () => undefined }, token).then(
        () => '',
        (e: Error) => `${e.message}\n${e.stack}`,
      );
      await Promise.resolve(ext.provider.provideLanguageModelChatInformation({ silent: false }, token)).catch(() => undefined);
      await ask(ext, 'none', [user('x')]).catch(() => undefined);
      return `${thrown}\n${ext.log.text()}`;
    }

    it('echoed-key-redacted: a gateway quoting the key in 400/401/500 and model-list errors never shows it', async () => {
      for (const status of [400, 401, 422, 500]) {
        echoStatus = status;
        const key = `sk-ECHO-${status}-abcdefghijkl`;
        const ext = activateAgainst({ url }, { maxRetries: 0 });
        try {
          const out = await run(ext, key);
          assert.ok(!out.includes('ECHO'), `HTTP ${status}: ${out}`);
          assert.ok(out.includes('[redacted]'), 'the message still says something was there');
        } finally {
          ext.dispose();
        }
      }
    });

    it('control-char-key-refused: a stored key with LF or NUL is refused with a clear message and never sent', async () => {
      for (const key of ['sk-CTRL-abcdef\nXYZSECRET', 'sk-CTRL-abcdef\u0000XYZSECRET', 'sk-CTRL-abc def XYZSECRET']) {
        const ext = activateAgainst({ url }, { maxRetries: 0 });
        try {
          const out = await run(ext, key);
          assert.ok(!out.includes('CTRL') && !out.includes('XYZSECRET'), out);
          assert.match(out, /The OpenCode API key from secret storage contains a (control character|space)/);
        } finally {
          ext.dispose();
        }
      }
    });

    it('base-url-redacted-in-logs: a base URL with credentials never appears in the activation or settings lines', () => {
      const ext = activateAgainst({ url: 'https://bob:hunter2@gw.example/v1?key=hunter3' });
      try {
        const text = ext.log.text();
        assert.ok(!text.includes('hunter2') && !text.includes('hunter3'), text);
        assert.match(text, /\[settings\] opencode\.baseUrl https:\/\/\[redacted\]@gw\.example\/v1\?key=\[redacted\] contains a user name or password and a query string/);
        assert.match(text, /\[activate\].*endpoint https:\/\/opencode\.ai\/zen\/go\/v1/);
      } finally {
        ext.dispose();
      }
    });
  });
});
