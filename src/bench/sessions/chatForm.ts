/**
 * A session in the neutral ChatMessage form the VS Code adapter produces, so the benchmark can time the
 * whole request preparation (conversion included). The inverse of toWireMessages for the shapes the
 * generator emits: tool results travel inside user messages, as VS Code sends them.
 */
import type { ChatMessage, ChatPart, ChatTool } from '../../core/types';
import type { WireMessage, WireTool } from '../../core/wire/wireTypes';
import type { BenchSession } from './sessionGenerator';

export interface ChatSession {
  messages: ChatMessage[];
  tools: ChatTool[];
  /** Request i sends the first chatEnds[i] chat messages. */
  chatEnds: number[];
}

export function toChatSession(session: BenchSession): ChatSession {
  const messages: ChatMessage[] = [];
  const chatCountAfter: number[] = [0];
  let pendingResults: ChatPart[] = [];
  const flushResults = (): void => {
    if (pendingResults.length) messages.push({ role: 'user', parts: pendingResults });
    pendingResults = [];
  };
  session.messages.forEach((message, i) => {
    if (message.role === 'tool') pendingResults.push({ kind: 'toolResult', callId: message.tool_call_id, text: message.content });
    else {
      flushResults();
      messages.push(toChatMessage(message));
    }
    const nextIsResult = session.messages[i + 1]?.role === 'tool';
    if (!nextIsResult) flushResults();
    chatCountAfter.push(messages.length);
  });
  return { messages, tools: session.tools.map(toChatTool), chatEnds: session.requestEnds.map((end) => chatCountAfter[end]) };
}

function toChatMessage(message: Exclude<WireMessage, { role: 'tool' }>): ChatMessage {
  if (message.role === 'assistant') {
    const parts: ChatPart[] = message.content ? [{ kind: 'text', text: message.content }] : [];
    for (const call of message.tool_calls ?? []) parts.push({ kind: 'toolCall', callId: call.id, name: call.function.name, input: JSON.parse(call.function.arguments) });
    return { role: 'assistant', parts };
  }
  const text = typeof message.content === 'string' ? message.content : message.content.map((p) => (p.type === 'text' ? p.text : '')).join('');
  return { role: message.role, parts: [{ kind: 'text', text }] };
}

function toChatTool(tool: WireTool): ChatTool {
  return { name: tool.function.name, description: tool.function.description, inputSchema: tool.function.parameters };
}
