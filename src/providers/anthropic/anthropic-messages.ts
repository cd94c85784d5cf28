import type { JsonValue } from '../../core/index.js';
import type { ChatMessage, ToolCallPart, ToolDefinition } from '../protocol.js';

export type AnthropicBlock =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: unknown }
  | { type: 'tool_result'; tool_use_id: string; content: string; is_error?: boolean };

export interface AnthropicMessage {
  role: 'user' | 'assistant';
  content: AnthropicBlock[];
}

export interface AnthropicTool {
  name: string;
  description: string;
  input_schema: Readonly<Record<string, unknown>>;
}

/**
 * Provider-neutral history → Messages API `system` and `messages`. System messages join into the
 * top-level `system`; tool results go in a user turn as `tool_result` blocks; consecutive turns of
 * one role merge, since the API expects user and assistant to alternate.
 */
export function toAnthropicMessages(messages: readonly ChatMessage[]): { system: string | undefined; messages: AnthropicMessage[] } {
  const system: string[] = [];
  const out: AnthropicMessage[] = [];
  const append = (role: 'user' | 'assistant', blocks: AnthropicBlock[]): void => {
    const last = out[out.length - 1];
    if (last !== undefined && last.role === role) last.content.push(...blocks);
    else out.push({ role, content: blocks });
  };
  for (const message of messages) {
    switch (message.role) {
      case 'system':
        system.push(message.content);
        break;
      case 'user':
        append('user', [{ type: 'text', text: message.content }]);
        break;
      case 'assistant': {
        const blocks: AnthropicBlock[] = [];
        if (message.content !== '') blocks.push({ type: 'text', text: message.content });
        for (const call of message.toolCalls ?? []) blocks.push({ type: 'tool_use', id: call.id, name: call.name, input: argumentsObject(call.arguments) });
        if (blocks.length > 0) append('assistant', blocks);
        break;
      }
      case 'tool': {
        const block: AnthropicBlock = { type: 'tool_result', tool_use_id: message.toolCallId, content: JSON.stringify(message.result) };
        if (isErrorResult(message.result)) block.is_error = true;
        append('user', [block]);
        break;
      }
    }
  }
  return { system: system.length === 0 ? undefined : system.join('\n\n'), messages: out };
}

/** Messages API turns → provider-neutral history (tool names recovered from the `tool_use` blocks). */
export function fromAnthropicMessages(system: string | undefined, messages: readonly AnthropicMessage[]): ChatMessage[] {
  const out: ChatMessage[] = system === undefined ? [] : [{ role: 'system', content: system }];
  const names = new Map<string, string>();
  for (const message of messages) {
    if (message.role === 'assistant') {
      const text = message.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('');
      const toolCalls: ToolCallPart[] = message.content.flatMap((block) => {
        if (block.type !== 'tool_use') return [];
        names.set(block.id, block.name);
        return [{ id: block.id, name: block.name, arguments: JSON.stringify(block.input) }];
      });
      out.push(toolCalls.length === 0 ? { role: 'assistant', content: text } : { role: 'assistant', content: text, toolCalls });
      continue;
    }
    for (const block of message.content) {
      if (block.type === 'text') out.push({ role: 'user', content: block.text });
      else if (block.type === 'tool_result') {
        out.push({ role: 'tool', toolCallId: block.tool_use_id, name: names.get(block.tool_use_id) ?? '', result: parseResult(block.content) });
      }
    }
  }
  return out;
}

export function toAnthropicTools(tools: readonly ToolDefinition[]): AnthropicTool[] {
  return tools.map((tool) => ({ name: tool.name, description: tool.description, input_schema: tool.parameters }));
}

/** `tool_use.input` must be an object: arguments that are not a JSON object are kept under `_raw`. */
function argumentsObject(text: string): unknown {
  try {
    const value = JSON.parse(text) as unknown;
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value;
  } catch {
    // fall through
  }
  return { _raw: text };
}

function isErrorResult(result: JsonValue): boolean {
  return typeof result === 'object' && result !== null && !Array.isArray(result) && 'error' in result;
}

function parseResult(text: string): JsonValue {
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return text;
  }
}
