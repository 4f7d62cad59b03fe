/**
 * VS Code's agent offers ~15K tokens of tools; on a model whose budget cannot hold them (with the instructions)
 * no cut helps. The request is refused before it is sent, the user reads what the tools take, what would fit and
 * what to do, the status bar warns, and the system message is never cut to a stub on the way.
 */
import * as assert from 'assert';
import fc from 'fast-check';
import type { PreparedRequest } from '../core/request/prepareRequest';
import { UserFacingError, fixedPartMessage } from '../core/request/userFacingError';
import type { ChatMessage, ChatTool } from '../core/types';
import * as double from './support/vscodeDouble';
import { activateAgainst, ask, user } from './support/activatedExtension';
import { engineFor, preparedBy } from './support/engineHarness';
import { useFakeServer } from './support/suiteHooks';
import { runs } from './support/propertyRuns';
import { fixedPartOverBudget } from '../core/trim/planTrim';

/** Tools shaped like an agent's: a long description and a few documented parameters each. */
function agentTools(count: number, descriptionWords = 120): ChatTool[] {
  return Array.from({ length: count }, (_, i) => ({
    name: `tool_${i}`,
    description: `Tool ${i}: ${'reads and changes the workspace in a documented way '.repeat(descriptionWords / 8)}`,
    inputSchema: { type: 'object', properties: { path: { type: 'string', description: 'A workspace path.' }, query: { type: 'string', description: 'What to look for.' } }, required: ['path'] },
  }));
}

const SYSTEM = `You are an agent. ${'Follow the workspace rules and explain each step. '.repeat(400)}`;
const ROUTE_MODELS = ['fake-large', 'fake-responses', 'fake-messages', 'fake-native-gemini'];
const ROUTE_SETTINGS = { models: { 'fake-responses': { api: 'responses' }, 'fake-messages': { api: 'messages' }, 'fake-native-gemini': { api: 'gemini' } } };

const systemMessage = (text: string): unknown => ({ role: 3, content: [new double.LanguageModelTextPart(text)] });
const statusItem = (): { text: string; tooltip: unknown; backgroundColor?: { id: string } } => double.createdStatusItems.filter((item) => item.id === 'opencode.status').at(-1);

describe('tools that cannot fit the budget', function () {
  this.timeout(60_000);
  const server = useFakeServer();

  for (const model of ROUTE_MODELS) {
    it(`${model} at a 6,000-token budget: refused before sending, with the figures; the status bar warns; no system stub`, async () => {
      const ext = activateAgainst(server(), { ...ROUTE_SETTINGS, maxInputTokens: 6_000 });
      try {
        const tools = agentTools(60).map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema }));
        const messages = [systemMessage(SYSTEM), user('Fix the failing test.')] as never[];
        const error = await ask(ext, model, messages, { tools } as never).then(() => undefined, (e: Error) => e);
        assert.ok(error, 'the request is refused');
        const text = error.message;
        assert.match(text, new RegExp(`^The request cannot fit ${model}'s input budget of 6,000 tokens: the 60 tools offered by the chat take ~[\\d,]+ tokens and the instructions \\(system prompt\\) ~[\\d,]+, before any of the conversation\\. `));
        assert.match(text, /(At most ~[\d,]+ tokens of tools would fit|No tools would fit) with these instructions and your message\. Pick a model with a larger context window, or turn tools off in the chat's tool picker/);
        assert.doesNotMatch(text, /Start a new chat|maxInputTokens/);
        assert.strictEqual(server().requests.filter((r) => r.method === 'POST').length, 0, 'nothing was sent');
        const logged = ext.log.text();
        assert.doesNotMatch(logged, /Truncated a system message|Over budget/);
        assert.match(logged, /\[warn\] \[history-trim\] Not sent: tools=60 \(~\d+ tokens, \d+ bytes\) system=~\d+ /);
        // Issue 32: logged once (no `[error] [error]` line repeating it), shown without a stack location.
        assert.strictEqual(logged.split(text).length - 1, 1, 'the message is in the log once');
        assert.doesNotMatch(logged, /\[error\] \[error\]/);
        assert.doesNotMatch(error.stack ?? '', /\bat\s/);
        const item = statusItem();
        assert.strictEqual(item.text, '$(warning) OpenCode: request too large');
        assert.strictEqual(item.backgroundColor?.id, 'statusBarItem.warningBackground');
        assert.strictEqual(item.tooltip, text);

        // The same chat without the tools fits: it is answered and the status bar shows the figures again.
        server().enqueueReply({ text: 'Done.' });
        assert.strictEqual((await ask(ext, model, messages)).text, 'Done.');
        assert.doesNotMatch(statusItem().text, /too large/);
        assert.strictEqual(statusItem().backgroundColor, undefined);
      } finally {
        ext.dispose();
      }
    });
  }

  it("fixed-part-property: a refusal's figures put tools + instructions over the ceiling; a request that goes keeps its instructions (any shortening is logged, never a stub)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 3_000 }), fc.integer({ min: 2_000, max: 40_000 }), async (toolCount, systemRepeats, budget) => {
        // The budget as opencode.maxInputTokens on a large window: exactly the budget the trim uses.
        const { engine, log } = engineFor(server().url, { maxInputTokens: budget });
        // Its own opening per case: the truncation WARN is written once per conversation and message.
        const system = `rules ${budget}-${toolCount}-${systemRepeats} ${'be precise and brief. '.repeat(systemRepeats)}`;
        const messages: ChatMessage[] = [
          { role: 'system', parts: [{ kind: 'text', text: system }] },
          { role: 'user', parts: [{ kind: 'text', text: 'hello' }] },
        ];
        const request = { purpose: 'conversation' as const, modelId: 'fake-large', messages, tools: agentTools(toolCount) };
        const limits = { contextWindow: 1_000_000, maxOutputTokens: 32_000 };
        const warnsBefore = log.messages('warn').length;
        let refusal: UserFacingError | undefined;
        let sent: PreparedRequest | undefined;
        const posted = server().requests.length;
        try {
          sent = await preparedBy(engine, request, limits);
        } catch (error) {
          assert.ok(error instanceof UserFacingError, String(error));
          refusal = error;
        }
        if (refusal) {
          const figures = /tools=(\d+) \(~(\d+) tokens, (\d+) bytes\) system=~(\d+) \((\d+) bytes\) newest=~\d+ budget=(\d+) ceiling=(\d+) maxBytes=(\d+)/.exec(refusal.detail);
          assert.ok(figures, refusal.detail);
          const [tools, toolsTokens, toolsBytes, systemTokens, systemBytes, shownBudget, ceiling, maxBytes] = figures.slice(1).map(Number);
          assert.strictEqual(tools, toolCount);
          assert.strictEqual(shownBudget, budget);
          assert.ok(toolsTokens + systemTokens > ceiling || toolsBytes + systemBytes > maxBytes, refusal.detail);
          assert.match(refusal.message, toolsTokens + systemTokens > ceiling ? /input budget of/ : /bytes a request to .* may take/);
          assert.strictEqual(refusal.kind, 'context');
          assert.strictEqual(server().requests.length, posted, 'a refused request is not sent');
        } else if (sent) {
          // It went: tools and instructions fit; only what the newest message adds may shorten the instructions, and then the log says so.
          const { breakdown } = sent.trim;
          assert.ok(breakdown.tools + breakdown.system <= sent.geometry.ceiling || sent.trim.bytes <= sent.budget.maxBytes, JSON.stringify(breakdown));
          if (sent.trim.messages[0].content !== system) {
            assert.ok(log.messages('warn').slice(warnsBefore).some((m) => m.startsWith('[history-trim] Truncated a system message')), 'a shortened system message is logged');
            assert.ok(String(sent.trim.messages[0].content).length > system.length / 2, 'never a stub');
          }
        }
      }),
      { numRuns: runs(150) },
    );
  });

  it('the message names the instructions alone when no tools are offered', () => {
    const part = { modelId: 'm', budgetTokens: 6_000, ceilingTokens: 5_900, toolCount: 0, toolsTokens: 0, systemTokens: 7_123, newestTokens: 5, maxBytes: Infinity, toolsBytes: 0, systemBytes: 30_000 };
    assert.ok(fixedPartOverBudget(part));
    assert.strictEqual(fixedPartMessage(part), "The request cannot fit m's input budget of 6,000 tokens: the instructions (system prompt) ~7,123 tokens alone, before any of the conversation. Pick a model with a larger context window.");
    assert.ok(!fixedPartOverBudget({ ...part, ceilingTokens: Infinity }));
    const heavy = { ...part, ceilingTokens: Infinity, toolCount: 3, toolsBytes: 20_000, maxBytes: 40_000 };
    assert.strictEqual(fixedPartMessage(heavy), "The request cannot fit the 40,000 bytes a request to m may take: the 3 tools offered by the chat take 20,000 bytes and the instructions (system prompt) 30,000, before any of the conversation. Raise opencode.maxRequestBytes if the endpoint takes larger requests, pick a model with a larger context window, or turn tools off in the chat's tool picker (Configure Tools).");
  });
});
