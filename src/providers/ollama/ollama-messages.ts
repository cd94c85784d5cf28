import type { JsonValue } from '../../core/index.js';
import type { ChatMessage, ToolDefinition } from '../protocol.js';

/** An Ollama `/api/chat` message. Tool arguments are objects; tool results name their tool. */
export type OllamaMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string; tool_calls?: OllamaToolCall[] }
  | { role: 'tool'; content: string; tool_name: string; tool_call_id?: string };

export interface OllamaToolCall {
  id?: string;
  function: { index?: number; name: string; arguments: Record<string, unknown> };
}

export interface OllamaTool {
  type: 'function';
  function: { name: string; description: string; parameters: Readonly<Record<string, unknown>> };
}

export function toOllamaMessages(messages: readonly ChatMessage[]): OllamaMessage[] {
  return messages.map((message): OllamaMessage => {
    switch (message.role) {
      case 'system':
      case 'user':
        return { role: message.role, content: message.content };
      case 'assistant':
        if (message.toolCalls === undefined || message.toolCalls.length === 0) return { role: 'assistant', content: message.content };
        return {
          role: 'assistant',
          content: message.content,
          tool_calls: message.toolCalls.map((call) => ({ id: call.id, function: { name: call.name, arguments: argumentsObject(call.arguments) } })),
        };
      case 'tool':
        return { role: 'tool', content: JSON.stringify(message.result), tool_name: message.name, tool_call_id: message.toolCallId };
    }
  });
}

/** `/api/chat` messages → provider-neutral history; calls without ids get `newId()`, results follow them in order. */
export function fromOllamaMessages(messages: readonly OllamaMessage[], newId: () => string): ChatMessage[] {
  const open: { id: string; name: string }[] = [];
  return messages.map((message): ChatMessage => {
    switch (message.role) {
      case 'system':
      case 'user':
        return { role: message.role, content: message.content };
      case 'assistant': {
        if (message.tool_calls === undefined || message.tool_calls.length === 0) return { role: 'assistant', content: message.content };
        const toolCalls = message.tool_calls.map((call) => ({ id: call.id ?? newId(), name: call.function.name, arguments: JSON.stringify(call.function.arguments) }));
        open.push(...toolCalls.map((call) => ({ id: call.id, name: call.name })));
        return { role: 'assistant', content: message.content, toolCalls };
      }
      case 'tool': {
        const at = open.findIndex((call) => (message.tool_call_id === undefined ? call.name === message.tool_name : call.id === message.tool_call_id));
        const call = at === -1 ? undefined : open.splice(at, 1)[0];
        return { role: 'tool', toolCallId: call?.id ?? message.tool_call_id ?? newId(), name: message.tool_name, result: parseResult(message.content) };
      }
    }
  });
}

export function toOllamaTools(tools: readonly ToolDefinition[]): OllamaTool[] {
  return tools.map((tool) => ({ type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.parameters } }));
}

function argumentsObject(text: string): Record<string, unknown> {
  try {
    const value = JSON.parse(text) as unknown;
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // fall through
  }
  return { _raw: text };
}

function parseResult(text: string): JsonValue {
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return text;
  }
}
