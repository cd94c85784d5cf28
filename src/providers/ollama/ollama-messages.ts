import type { FunctionTool } from '../message-mapping.js';
import { argumentsObject, assistantMessage, CallLedger, fromFlatMessages, parseToolResult, toFlatMessages, toFunctionTools } from '../message-mapping.js';
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

export type OllamaTool = FunctionTool;

export function toOllamaMessages(messages: readonly ChatMessage[]): OllamaMessage[] {
  return toFlatMessages<OllamaMessage>(messages, {
    withCalls: (message, calls) => ({
      role: 'assistant',
      content: message.content,
      tool_calls: calls.map((call) => ({ id: call.id, function: { name: call.name, arguments: argumentsObject(call.arguments) } })),
    }),
    result: (message) => ({ role: 'tool', content: JSON.stringify(message.result), tool_name: message.name, tool_call_id: message.toolCallId }),
  });
}

/** `/api/chat` messages → provider-neutral history; calls without ids get `newId()`, results follow them in order. */
export function fromOllamaMessages(messages: readonly OllamaMessage[], newId: () => string): ChatMessage[] {
  const calls = new CallLedger();
  return fromFlatMessages(messages, {
    assistant: (message) => {
      const toolCalls = message.tool_calls?.map((call) => ({ id: call.id ?? newId(), name: call.function.name, arguments: JSON.stringify(call.function.arguments) }));
      for (const call of toolCalls ?? []) calls.record(call.id, call.name);
      return assistantMessage(message.content, toolCalls);
    },
    result: (message) => {
      const call = calls.answer(message.tool_call_id, message.tool_name);
      return { role: 'tool', toolCallId: call?.id ?? message.tool_call_id ?? newId(), name: message.tool_name, result: parseToolResult(message.content) };
    },
  });
}

export const toOllamaTools: (tools: readonly ToolDefinition[]) => OllamaTool[] = toFunctionTools;
