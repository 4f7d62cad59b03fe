import * as assert from 'assert';
import { PRESET_URLS, resolveSettings } from '../core/config/settings';
import { envKeyAllowed, isInsecureRemoteUrl, isLoopbackUrl } from '../core/config/endpoints';

function resolve(values: Record<string, unknown>) {
  const warnings: string[] = [];
  const settings = resolveSettings((key) => values[key], (m) => warnings.push(m));
  return { settings, warnings };
}

describe('settings', () => {
  it('uses documented defaults with no warning', () => {
    const { settings, warnings } = resolve({});
    assert.deepStrictEqual(warnings, []);
    assert.strictEqual(settings.baseUrl, PRESET_URLS.go);
    assert.strictEqual(settings.reservedOutputTokens, 20_000);
    assert.deepStrictEqual(settings.historyTrim, { enabled: true, headroomRatio: 0.03, headroomMinTokens: 8_192, headroomMaxTokens: 32_768, cutStepTokens: 32_768, keepRecentRounds: 2, pruneToolResults: true, pruneProtectTokens: 40_000 });
    assert.strictEqual(settings.contextLimitFallback, 128_000);
  });

  it('clamps out-of-range numbers and names the setting and the value used', () => {
    const { settings, warnings } = resolve({ reservedOutputTokens: -5, 'historyTrim.headroomRatio': 3, streamIdleTimeoutSeconds: 1 });
    assert.strictEqual(settings.reservedOutputTokens, 0);
    assert.strictEqual(settings.historyTrim.headroomRatio, 0.5);
    assert.strictEqual(settings.streamIdleTimeoutSeconds, 5);
    assert.deepStrictEqual(warnings, [
      'opencode.reservedOutputTokens -5 is outside 0…1000000; using 0.',
      'opencode.historyTrim.headroomRatio 3 is outside 0…0.5; using 0.5.',
      'opencode.streamIdleTimeoutSeconds 1 is outside 5…3600; using 5.',
    ]);
  });

  it('replaces NaN, strings and wrong types with the default, with a warning', () => {
    const { settings, warnings } = resolve({ 'historyTrim.cutStepTokens': Number.NaN, contextLimitFallback: '128k', recordRequests: 'yes', reportedInputLimit: 'everything' });
    assert.strictEqual(settings.historyTrim.cutStepTokens, 32_768);
    assert.strictEqual(settings.contextLimitFallback, 128_000);
    assert.strictEqual(settings.recordRequests, false);
    assert.strictEqual(settings.reportedInputLimit, 'budget');
    assert.strictEqual(warnings.length, 4);
    assert.match(warnings[1], /opencode\.contextLimitFallback "128k" is not a number; using 128000/);
  });

  it('raises a headroom max below the min to the min', () => {
    const { settings, warnings } = resolve({ 'historyTrim.headroomMinTokens': 10_000, 'historyTrim.headroomMaxTokens': 100 });
    assert.strictEqual(settings.historyTrim.headroomMaxTokens, 10_000);
    assert.strictEqual(warnings.length, 1);
  });

  it('takes baseUrl over the preset, strips a trailing slash, and rejects non-http URLs', () => {
    assert.strictEqual(resolve({ preset: 'zen' }).settings.baseUrl, PRESET_URLS.zen);
    assert.strictEqual(resolve({ baseUrl: 'http://127.0.0.1:11434/v1/' }).settings.baseUrl, 'http://127.0.0.1:11434/v1');
    const bad = resolve({ baseUrl: 'ftp://x' });
    assert.strictEqual(bad.settings.baseUrl, PRESET_URLS.go);
    assert.match(bad.warnings[0], /opencode\.baseUrl "ftp:\/\/x" is not an http\(s\) URL/);
  });

  it('knows loopback and insecure remote URLs', () => {
    assert.ok(isLoopbackUrl('http://127.0.0.1:8080/v1'));
    assert.ok(isLoopbackUrl('http://localhost/v1'));
    assert.ok(isLoopbackUrl('http://[::1]:1/v1'));
    assert.ok(!isLoopbackUrl('https://opencode.ai/zen/v1'));
    assert.ok(isInsecureRemoteUrl('http://example.com/v1'));
    assert.ok(!isInsecureRemoteUrl('http://127.0.0.1/v1'));
    assert.ok(!isInsecureRemoteUrl('https://example.com/v1'));
  });

  it('sends the environment key only over https to opencode.ai', () => {
    const allowed = ['https://opencode.ai/zen/v1', 'https://opencode.ai/zen/go/v1', 'https://api.opencode.ai/v1'];
    const refused = ['http://opencode.ai/zen/v1', 'https://opencode.ai.evil.example/v1', 'https://evilopencode.ai/v1', 'http://127.0.0.1:4000/v1', 'https://gw.example/zen/v1', 'not a url'];
    assert.deepStrictEqual(allowed.filter(envKeyAllowed), allowed);
    assert.deepStrictEqual(refused.filter(envKeyAllowed), []);
  });
});
