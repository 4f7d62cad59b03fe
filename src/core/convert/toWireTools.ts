/**
 * VS Code tools → OpenAI `tools` and `tool_choice`. Tools are sorted by name: chat may list them in a
 * different order from one request to the next, and the tools block sits at the very front of the
 * cached prefix, so any reordering would cost the whole cache.
 */
import type { ChatTool, ToolMode } from '../types';
import type { WireTool } from '../wire/wireTypes';

const EMPTY_SCHEMA = { type: 'object', properties: {} };

export function toWireTools(tools: readonly ChatTool[]): WireTool[] {
  return [...tools]
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((tool) => ({
      type: 'function',
      function: { name: tool.name, description: tool.description, parameters: tool.inputSchema ?? EMPTY_SCHEMA },
    }));
}

/** Only "required" is sent; "auto" is every endpoint's default and some reject an explicit value. */
export function toWireToolChoice(mode: ToolMode | undefined, toolCount: number): 'required' | undefined {
  return mode === 'required' && toolCount > 0 ? 'required' : undefined;
}
