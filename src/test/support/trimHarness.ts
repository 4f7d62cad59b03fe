/** Small builders for trim tests: histories of known shape and a one-call trim with default settings. */
import { resolveSettings } from '../../core/config/settings';
import { computeBudget, cutGeometry } from '../../core/trim/budget';
import { trimHistory, type TrimResult } from '../../core/trim/historyTrim';
import { SizeMemo } from '../../core/trim/messageSize';
import type { WireMessage } from '../../core/wire/wireTypes';

export const defaultSettings = resolveSettings(() => undefined, () => undefined);

/** Deterministic filler text of roughly `tokens` tokens (English-like words, ~1 token each). */
export function filler(tokens: number, seed: number): string {
  const words = ['alpha', 'beta', 'gamma', 'delta', 'cache', 'prefix', 'token', 'budget', 'window', 'stable'];
  const out: string[] = [];
  for (let i = 0; i < tokens; i++) out.push(words[(i * 7 + seed * 13) % words.length]);
  return out.join(' ');
}

export function toolGroup(id: string, resultTokens: number, seed: number, calls = 1): WireMessage[] {
  const callIds = Array.from({ length: calls }, (_, k) => `${id}_${k}`);
  return [
    { role: 'assistant', content: null, tool_calls: callIds.map((callId) => ({ id: callId, type: 'function' as const, function: { name: 'read_file', arguments: JSON.stringify({ path: `src/${callId}.ts` }) } })) },
    ...callIds.map((callId, k): WireMessage => ({ role: 'tool', tool_call_id: callId, content: filler(Math.round(resultTokens / calls), seed + k) })),
  ];
}

export function trimWith(messages: WireMessage[], budgetTokens: number, memo = new SizeMemo(), extraGridMoves = 0, historyTrim = defaultSettings.historyTrim): TrimResult {
  const budget = computeBudget({ contextWindow: budgetTokens + 20_000, maxOutputTokens: 20_000 }, { ...defaultSettings, budgetOverrideTokens: budgetTokens });
  return trimHistory(messages, {
    budget,
    geometry: cutGeometry(budgetTokens, historyTrim),
    calibration: 1,
    extraGridMoves,
    memo,
    tools: { tokens: 0, bytes: 0 },
  });
}
