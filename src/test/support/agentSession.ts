/**
 * A VS Code agent session driven through the engine against the fake server: each answer is scripted (its
 * reasoning, text and tool calls), the history is built from what the engine showed, the way VS Code builds it —
 * the tool calls and text of each answer, its thinking only when VS Code kept the thinking part — and every tool
 * call gets a result. Returns what each request sent.
 */
import type { ChatEngine } from '../../core/request/chatEngine';
import type { ChatMessage, ChatPart, ModelLimits, StreamEvent } from '../../core/types';
import type { FakeServer } from '../../fakeServer';

export const AGENT_TOOLS = [{ name: 'read', description: 'read a file', inputSchema: { type: 'object', properties: { path: { type: 'string' } } } }];
export const AGENT_LIMITS: ModelLimits = { contextWindow: 1_000_000, maxOutputTokens: 8_000 };

/** One scripted answer: reasoning (may be empty), text, and the ids of the tool calls it makes (none: it ends the turn). */
export interface AgentStep {
  reasoning: string;
  text?: string;
  callIds?: string[];
  /** VS Code kept this answer's thinking part in the history it sends back. */
  keepThinking?: boolean;
}

export const userText = (text: string): ChatMessage => ({ role: 'user', parts: [{ kind: 'text', text }] });

/** Sends the history as it stands with `step` scripted as the answer; appends the answer (and its tool results) to the history. */
export async function agentStep(engine: ChatEngine, server: FakeServer, modelId: string, history: ChatMessage[], step: AgentStep): Promise<void> {
  const calls = (step.callIds ?? []).map((id, i) => ({ id, name: 'read', arguments: JSON.stringify({ path: `src/f${i}.ts` }) }));
  server.enqueueReply({ ...(step.reasoning ? { reasoning: step.reasoning } : {}), ...(step.text ? { text: step.text } : {}), ...(calls.length ? { toolCalls: calls } : {}) });
  const events: StreamEvent[] = [];
  await engine.run({ purpose: 'conversation', modelId, messages: [...history], tools: AGENT_TOOLS.map((t) => ({ ...t })) }, AGENT_LIMITS, (e) => events.push(e), new AbortController().signal);
  history.push(answerAsVsCodeKeepsIt(events, step.keepThinking === true));
  const results: ChatPart[] = events.flatMap((e) => (e.kind === 'toolCall' ? [{ kind: 'toolResult' as const, callId: e.callId, text: `contents of ${JSON.stringify(e.input)}` }] : []));
  if (results.length > 0) history.push({ role: 'user', parts: results });
}

function answerAsVsCodeKeepsIt(events: readonly StreamEvent[], keepThinking: boolean): ChatMessage {
  const thinking = events.map((e) => (e.kind === 'thinking' ? e.text : '')).join('');
  const text = events.map((e) => (e.kind === 'text' ? e.text : '')).join('');
  const parts: ChatPart[] = [];
  if (keepThinking && thinking) parts.push({ kind: 'thinking', text: thinking });
  if (text) parts.push({ kind: 'text', text });
  for (const e of events) if (e.kind === 'toolCall') parts.push({ kind: 'toolCall', callId: e.callId, name: e.name, input: e.input });
  return { role: 'assistant', parts };
}

/** The assistant messages of a chat body that called tools: first call id → the reasoning_content sent with it. */
export function sentReasoningByCall(body: { messages?: unknown }): Map<string, string | undefined> {
  const out = new Map<string, string | undefined>();
  for (const m of (body.messages ?? []) as { role?: string; tool_calls?: { id: string }[]; reasoning_content?: string }[]) {
    if (m.role === 'assistant' && m.tool_calls?.length) out.set(m.tool_calls[0].id, m.reasoning_content);
  }
  return out;
}
