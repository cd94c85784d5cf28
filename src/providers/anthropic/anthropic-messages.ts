import { argumentsObject, assistantMessage, CallLedger, isJsonObject, parseToolResult, toAlternatingTurns } from '../message-mapping.js';
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
 * Provider-neutral history → Messages API `system` and `messages` (system messages join into the
 * top-level `system`, tool results are `tool_result` blocks in a user turn, turns alternate).
 */
export function toAnthropicMessages(messages: readonly ChatMessage[]): { system: string | undefined; messages: AnthropicMessage[] } {
  const { system, turns } = toAlternatingTurns<'user' | 'assistant', AnthropicBlock>(messages, {
    user: 'user',
    assistant: 'assistant',
    text: (text) => ({ type: 'text', text }),
    // `tool_use.input` must be an object.
    call: (call) => ({ type: 'tool_use', id: call.id, name: call.name, input: argumentsObject(call.arguments) }),
    result: (message) => {
      const block: AnthropicBlock = { type: 'tool_result', tool_use_id: message.toolCallId, content: JSON.stringify(message.result) };
      if (isJsonObject(message.result) && 'error' in message.result) block.is_error = true;
      return block;
    },
  });
  return { system, messages: turns.map((turn) => ({ role: turn.role, content: turn.items })) };
}

/** Messages API turns → provider-neutral history (tool names recovered from the `tool_use` blocks). */
export function fromAnthropicMessages(system: string | undefined, messages: readonly AnthropicMessage[]): ChatMessage[] {
  const out: ChatMessage[] = system === undefined ? [] : [{ role: 'system', content: system }];
  const calls = new CallLedger();
  for (const message of messages) {
    if (message.role === 'assistant') {
      const text = message.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('');
      const toolCalls: ToolCallPart[] = message.content.flatMap((block) => {
        if (block.type !== 'tool_use') return [];
        calls.record(block.id, block.name);
        return [{ id: block.id, name: block.name, arguments: JSON.stringify(block.input) }];
      });
      out.push(assistantMessage(text, toolCalls));
      continue;
    }
    for (const block of message.content) {
      if (block.type === 'text') out.push({ role: 'user', content: block.text });
      else if (block.type === 'tool_result') {
        out.push({ role: 'tool', toolCallId: block.tool_use_id, name: calls.nameOf(block.tool_use_id), result: parseToolResult(block.content) });
      }
    }
  }
  return out;
}

export function toAnthropicTools(tools: readonly ToolDefinition[]): AnthropicTool[] {
  return tools.map((tool) => ({ name: tool.name, description: tool.description, input_schema: tool.parameters }));
}
