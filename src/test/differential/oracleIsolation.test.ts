/**
 * The SDK oracles hear nothing from the environment: with every OPENAI_* / ANTHROPIC_* / GEMINI_* / GOOGLE_*
 * variable they read set to a hostile value, each still reaches only the loopback server, with only the test
 * key and no header the environment named.
 */
import * as assert from 'assert';
import { answerArb } from './support/answerArb';
import { ALL_CASES, usePieceServer } from './support/routeCases';
import { TEST_KEY } from './support/sdkClients';
import fc from 'fast-check';

const LEAK = 'LEAKED-FROM-ENV';
const HOSTILE: Record<string, string> = {
  OPENAI_API_KEY: LEAK, OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', OPENAI_ORG_ID: LEAK, OPENAI_PROJECT_ID: LEAK, OPENAI_LOG: 'debug',
  OPENAI_CUSTOM_HEADERS: `X-Leak: ${LEAK}`,
  ANTHROPIC_API_KEY: LEAK, ANTHROPIC_AUTH_TOKEN: LEAK, ANTHROPIC_BASE_URL: 'http://127.0.0.1:9', ANTHROPIC_LOG: 'debug',
  ANTHROPIC_CUSTOM_HEADERS: `X-Leak: ${LEAK}`,
  GOOGLE_API_KEY: LEAK, // read before GEMINI_API_KEY (setting both only adds a console line)
  GOOGLE_GEMINI_BASE_URL: 'http://127.0.0.1:9', GOOGLE_GENAI_USE_VERTEXAI: 'true',
  GOOGLE_CLOUD_PROJECT: LEAK, GOOGLE_CLOUD_LOCATION: LEAK,
};

describe('differential oracles: no environment variable reaches an SDK client', () => {
  const server = usePieceServer();
  const saved: Record<string, string | undefined> = {};
  before(() => {
    for (const [k, v] of Object.entries(HOSTILE)) {
      saved[k] = process.env[k];
      process.env[k] = v;
    }
  });
  after(() => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  });

  for (const c of ALL_CASES) {
    it(`${c.route}: the SDK reads the loopback answer, sending only the test key`, async () => {
      const [answer] = fc.sample(answerArb(c.usageShapes, c.noUsage), { numRuns: 1, seed: 42 });
      server().serve(c.encode(answer), []);
      await c.oracle(server().origin);
      assert.strictEqual(server().requests.length, 1);
      const sent = JSON.stringify(server().requests[0].headers);
      assert.ok(!sent.includes(LEAK), sent);
      assert.ok(sent.includes(TEST_KEY), sent);
    });
  }
});
