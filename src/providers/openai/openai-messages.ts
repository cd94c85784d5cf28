import type { FunctionTool } from '../message-mapping.js';
import { assistantMessage, CallLedger, fromFlatMessages, parseToolResult, toFlatMessages, toFunctionTools } from '../message-mapping.js';
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

export type OpenAiTool = FunctionTool;

/** Provider-neutral history → Chat Completions `messages`. Tool results are sent as JSON text. */
export function toOpenAiMessages(messages: readonly ChatMessage[]): OpenAiMessage[] {
  return toFlatMessages<OpenAiMessage>(messages, {
    withCalls: (message, calls) => ({
      role: 'assistant',
      content: message.content === '' ? null : message.content,
      tool_calls: calls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } })),
    }),
    result: (message) => ({ role: 'tool', tool_call_id: message.toolCallId, content: JSON.stringify(message.result) }),
  });
}

/** Chat Completions `messages` → provider-neutral history (tool names recovered from the calls). */
export function fromOpenAiMessages(messages: readonly OpenAiMessage[]): ChatMessage[] {
  const calls = new CallLedger();
  return fromFlatMessages(messages, {
    assistant: (message) => {
      const toolCalls: ToolCallPart[] | undefined = message.tool_calls?.map((call) => {
        calls.record(call.id, call.function.name);
        return { id: call.id, name: call.function.name, arguments: call.function.arguments };
      });
      return assistantMessage(message.content ?? '', toolCalls);
    },
    result: (message) => ({ role: 'tool', toolCallId: message.tool_call_id, name: calls.nameOf(message.tool_call_id), result: parseToolResult(message.content) }),
  });
}

export const toOpenAiTools: (tools: readonly ToolDefinition[]) => OpenAiTool[] = toFunctionTools;
