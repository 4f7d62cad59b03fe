/** The fixed part of docs/benchmarks.md: how the numbers are made and what they do not show. */

export const METHOD_AND_LIMITS = `## How the numbers are made

* **Sessions** are generated from a seed (\`src/bench/sessions/\`), no data files: a system prompt and tool
  definitions (~70K tokens at B = 613,952, like the production session's 69,888 of system + tools; ~20K in (e)), an anchor task,
  history pre-filled to about two requests of growth under the budget, then one step per request — mostly an
  assistant tool call with its results (parallel calls in (d)), and now and then (one request in 4 to 10, by
  regime) an assistant answer plus the next user message, so there is a current turn. In (f) no user message
  follows the current prompt: all 300 requests add tool rounds to one agent turn, which outgrows the budget. Text comes from the seeded
  generators in \`src/test/fixtures/textSamples.ts\`. The "mean unit" and "growth/request" columns are measured on
  the generated sessions, not the targets.
* **Budget**: B = 613,952 for (a)–(d) (\`opencode.maxInputTokens\`; the production session's deepseek-v4.1-flash budget), byte
  ceiling 4.5 × B = 2,762,784. For (e) B = 183,500: what the leading extension computes for a 262,144-token window
  with 32,768 max output (min(0.7 × window, window − max output − 2,048)), a typical model for CJK-heavy use; its
  byte ceiling is 825,750.
* **Cache**: each policy run gets its own \`PrefixCacheModel\` (the fake server's exact-prefix model: whole
  message blocks, o200k counts, 64-token granularity) under one session id. The session reached the ceiling from
  below, so every run starts with the previous turn (the pre-fill without the current user message) cached.
  Blocks are measured once per message object and fed to each run's model through \`observeMeasured\`: the same
  numbers as \`observe\`, without re-serializing and re-hashing megabytes on every request.
* **Token count.** The cache model counts each message as a chat template does: its text — content,
  tool-call names and arguments, reasoning — plus 4 tokens per message and 3 per tool call, images at a fixed
  800; the tools block as its JSON. (Before that it counted each message's JSON, keys, quotes and escapes
  included: 12–15% more, which made every calibrated policy keep less than a real endpoint allows.) Regimes
  (b)–(d) are also run with the bench's own text-only count on a session pre-filled by it; the two counts now
  differ only by the tool-call markers. In (g) the endpoint's count is the cache model's times a factor that
  drifts between 1.22 and 1.34 (a sine over 150 requests ± 0.8% jitter per request), like a model whose tokenizer
  is not o200k on mixed CJK and English text; every figure of (g) is in those units, for every policy.
* **Policies**: *no trimming* sends everything (cost baseline; it exceeds B). *Minimal fit* drops the oldest
  units until the payload fits B (our estimator, calibrated like ours, no margin). *Leading extension* is its
  published rule, re-implemented here from its description: trim only above B; drop the oldest units until at or
  below the low-water mark B − H (bytes too, at 4.5 bytes per token), then on to the next multiple of the cut step S
  of dropped tokens; H = 3% of B clamped to 8,192…32,768, S = 32,768, both ≤ 10% of B; tokens = chars/4 + 10% of
  the message text (content, tool-call names and arguments; the tools block as JSON), no calibration. *Leading
  rule, our estimator* is the same rule on our estimator with the calibration factor rounded to 0.05 (unrounded,
  calibration noise alone moves a grid cut), to separate the rule from the estimate. *Ours* is
  \`planTrim\` + \`accountUsage\` exactly as the extension runs them. All of them keep the same head (system prompt,
  anchor), the current prompt and the newest two rounds, and cut the same whole units (older turns, then the
  oldest rounds of the current turn), so only the cut rule and the estimator differ.
* **Figures**: a *cut move* is a request whose number of dropped messages differs from the previous request's
  (the cached prefix breaks at the cut); "(n back)" counts moves to fewer dropped messages. *Kept* = o200k prompt
  tokens sent. *Landings* = kept tokens on the requests that moved the cut. *Over B* = requests whose prompt
  exceeds the budget. *Cost* counts input tokens only (output is the same whatever the trim), cached tokens at 10%
  of the input price, divided by the no-trimming run's cost on the same session.

## What these numbers do not show

* The cache model matches whole messages, never expires and has no minimum length; real providers match tokens
  (DeepSeek in stored units, OpenAI in 128-token steps) and evict. Use it to compare policies, not to predict a
  bill. A cut that moves back to a prefix sent a few requests earlier is a cache hit here; a provider that evicted
  that prefix would miss.
* o200k stands in for every model's tokenizer. Against a DeepSeek, Kimi, GLM or Qwen tokenizer the chars/4 error has
  the same sign but not the same size; ours calibrates against whatever the API reports.
* The leading policy is re-implemented from its published description, not run from its code. Where the
  description leaves a detail open, the choice is stated above (same units, head and tail as ours; bytes get the
  same low-water treatment; the step grid counts tokens).
* Cost is relative to a baseline that cannot exist at the ceiling: no trimming exceeds the budget, which a real
  endpoint rejects. A policy that keeps more context pays for it on every request, so cheaper is not better on its
  own: cut moves, hit rate, kept context and cost have to be read together.
`;
