/**
 * Checks one replay line's messages and tools against the wire shapes, so a bad line is an error naming the
 * line and the field (`messages[3].content: …`) instead of a TypeError deep inside the trim.
 */
import type { WireMessage, WireTool } from '../wire/wireTypes';
import { isRecord } from '../util/jsonFields';

/** What a value is, for an error message. */
function kind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `a string ${JSON.stringify(value.length > STRING_SHOWN ? `${value.slice(0, STRING_SHOWN)}…` : value)}`;
  return typeof value === 'object' ? 'an object' : `${typeof value} ${String(value)}`;
}

/** Characters of a wrong string value the error shows (enough to recognise it, never a whole message). */
const STRING_SHOWN = 40;

const expect = (field: string, what: string, value: unknown): string => `${field}: expected ${what}, got ${kind(value)}`;

function contentPartProblem(part: unknown, field: string): string | undefined {
  if (!isRecord(part)) return expect(field, 'a content part object', part);
  if (part.type === 'text') return typeof part.text === 'string' ? undefined : expect(`${field}.text`, 'a string', part.text);
  if (part.type === 'image_url') return isRecord(part.image_url) && typeof part.image_url.url === 'string' ? undefined : expect(`${field}.image_url.url`, 'a string', isRecord(part.image_url) ? part.image_url.url : part.image_url);
  return expect(`${field}.type`, '"text" or "image_url"', part.type);
}

function toolCallProblem(call: unknown, field: string): string | undefined {
  if (!isRecord(call)) return expect(field, 'a tool call object', call);
  if (typeof call.id !== 'string') return expect(`${field}.id`, 'a string', call.id);
  if (!isRecord(call.function)) return expect(`${field}.function`, 'an object with name and arguments', call.function);
  if (typeof call.function.name !== 'string') return expect(`${field}.function.name`, 'a string', call.function.name);
  if (typeof call.function.arguments !== 'string') return expect(`${field}.function.arguments`, 'a string', call.function.arguments);
  return undefined;
}

function contentProblem(message: Record<string, unknown>, field: string): string | undefined {
  const { role, content } = message;
  if (role === 'user' && Array.isArray(content)) {
    for (let i = 0; i < content.length; i++) {
      const problem = contentPartProblem(content[i], `${field}.content[${i}]`);
      if (problem) return problem;
    }
    return undefined;
  }
  if (typeof content === 'string') return undefined;
  if (role === 'assistant' && content === null) return undefined;
  return expect(`${field}.content`, role === 'user' ? 'a string or an array of parts' : role === 'assistant' ? 'a string or null' : 'a string', content);
}

/** The first problem of a message, or undefined. */
export function messageProblem(message: unknown, field: string): string | undefined {
  if (!isRecord(message)) return expect(field, 'a message object', message);
  const { role } = message;
  if (role !== 'system' && role !== 'user' && role !== 'assistant' && role !== 'tool') return expect(`${field}.role`, '"system", "user", "assistant" or "tool"', role);
  if (role === 'tool' && typeof message.tool_call_id !== 'string') return expect(`${field}.tool_call_id`, 'a string', message.tool_call_id);
  if (role === 'assistant' && message.tool_calls !== undefined) {
    if (!Array.isArray(message.tool_calls)) return expect(`${field}.tool_calls`, 'an array', message.tool_calls);
    for (let i = 0; i < message.tool_calls.length; i++) {
      const problem = toolCallProblem(message.tool_calls[i], `${field}.tool_calls[${i}]`);
      if (problem) return problem;
    }
  }
  if (role === 'assistant' && message.reasoning_content !== undefined && typeof message.reasoning_content !== 'string') {
    return expect(`${field}.reasoning_content`, 'a string', message.reasoning_content);
  }
  return contentProblem(message, field);
}

export function toolProblem(tool: unknown, field: string): string | undefined {
  if (!isRecord(tool)) return expect(field, 'a tool object', tool);
  if (!isRecord(tool.function)) return expect(`${field}.function`, 'an object with a name', tool.function);
  if (typeof tool.function.name !== 'string') return expect(`${field}.function.name`, 'a string', tool.function.name);
  if (tool.function.description !== undefined && typeof tool.function.description !== 'string') return expect(`${field}.function.description`, 'a string', tool.function.description);
  if (tool.function.parameters !== undefined && !isRecord(tool.function.parameters)) return expect(`${field}.function.parameters`, 'a JSON schema object', tool.function.parameters);
  return undefined;
}

/** The list checked item by item; throws the first problem. */
export function checkedList<T>(list: unknown[], field: string, problemOf: (item: unknown, field: string) => string | undefined): T[] {
  for (let i = 0; i < list.length; i++) {
    const problem = problemOf(list[i], `${field}[${i}]`);
    if (problem) throw new Error(problem);
  }
  return list as T[];
}

export const checkedMessages = (list: unknown[], field: string): WireMessage[] => checkedList<WireMessage>(list, field, messageProblem);

/** Tools with the optional fields filled in, as the extension would send them. */
export function checkedTools(list: unknown[]): WireTool[] {
  return checkedList<WireTool>(list, 'tools', toolProblem).map((tool) => ({
    type: 'function',
    function: { name: tool.function.name, description: tool.function.description ?? '', parameters: tool.function.parameters ?? {} },
  }));
}
