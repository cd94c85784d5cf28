import type { JsonValue } from '../../core/index.js';
import type { ChatMessage, ToolCallPart, ToolDefinition } from '../protocol.js';

/** A Chat Completions message as the API documents it. */
export type OpenAiMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: OpenAiToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

export interface OpenAiToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export interface OpenAiTool {
  type: 'function';
  function: { name: string; description: string; parameters: Readonly<Record<string, unknown>> };
}

/** Provider-neutral history → Chat Completions `messages`. Tool results are sent as JSON text. */
export function toOpenAiMessages(messages: readonly ChatMessage[]): OpenAiMessage[] {
  return messages.map((message): OpenAiMessage => {
    switch (message.role) {
      case 'system':
      case 'user':
        return { role: message.role, content: message.content };
      case 'assistant':
        if (message.toolCalls === undefined || message.toolCalls.length === 0) return { role: 'assistant', content: message.content };
        return {
          role: 'assistant',
          content: message.content === '' ? null : message.content,
          tool_calls: message.toolCalls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } })),
        };
      case 'tool':
        return { role: 'tool', tool_call_id: message.toolCallId, content: JSON.stringify(message.result) };
    }
  });
}

/** Chat Completions `messages` → provider-neutral history (tool names recovered from the calls). */
export function fromOpenAiMessages(messages: readonly OpenAiMessage[]): ChatMessage[] {
  const names = new Map<string, string>();
  return messages.map((message): ChatMessage => {
    switch (message.role) {
      case 'system':
      case 'user':
        return { role: message.role, content: message.content };
      case 'assistant': {
        const toolCalls: ToolCallPart[] | undefined = message.tool_calls?.map((call) => {
          names.set(call.id, call.function.name);
          return { id: call.id, name: call.function.name, arguments: call.function.arguments };
        });
        return toolCalls === undefined || toolCalls.length === 0
          ? { role: 'assistant', content: message.content ?? '' }
          : { role: 'assistant', content: message.content ?? '', toolCalls };
      }
      case 'tool':
        return { role: 'tool', toolCallId: message.tool_call_id, name: names.get(message.tool_call_id) ?? '', result: parseResult(message.content) };
    }
  });
}

export function toOpenAiTools(tools: readonly ToolDefinition[]): OpenAiTool[] {
  return tools.map((tool) => ({ type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.parameters } }));
}

/** A tool result's JSON text back to a value; text that is not JSON stays a string. */
export function parseResult(text: string): JsonValue {
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return text;
  }
}
