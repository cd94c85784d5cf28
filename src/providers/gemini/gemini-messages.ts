import type { JsonValue } from '../../core/index.js';
import { argumentsObject, assistantMessage, CallLedger, isJsonObject, toAlternatingTurns } from '../message-mapping.js';
import type { ChatMessage, ToolCallPart, ToolDefinition } from '../protocol.js';

export type GeminiPart =
  | { text: string; thought?: boolean }
  | { functionCall: { id?: string; name: string; args: Record<string, unknown> }; thoughtSignature?: string }
  | { functionResponse: { id?: string; name: string; response: Record<string, unknown> } };

export interface GeminiContent {
  role: 'user' | 'model';
  parts: GeminiPart[];
}

export interface GeminiTools {
  functionDeclarations: { name: string; description: string; parametersJsonSchema: Readonly<Record<string, unknown>> }[];
}

/**
 * Provider-neutral history → `systemInstruction` and `contents` (function responses travel in a
 * user turn, turns alternate). A result that is not an object is wrapped as `{ result }` (the API
 * wants an object); a call keeps its `thoughtSignature`.
 */
export function toGeminiContents(messages: readonly ChatMessage[]): { systemInstruction: { parts: { text: string }[] } | undefined; contents: GeminiContent[] } {
  const { system, turns } = toAlternatingTurns<'user' | 'model', GeminiPart>(messages, {
    user: 'user',
    assistant: 'model',
    text: (text) => ({ text }),
    call: (call) => {
      const signature = call.providerData?.thoughtSignature;
      const functionCall = { id: call.id, name: call.name, args: argumentsObject(call.arguments) };
      return typeof signature === 'string' ? { functionCall, thoughtSignature: signature } : { functionCall };
    },
    result: (message) => ({ functionResponse: { id: message.toolCallId, name: message.name, response: isJsonObject(message.result) ? message.result : { result: message.result } } }),
  });
  return { systemInstruction: system === undefined ? undefined : { parts: [{ text: system }] }, contents: turns.map((turn) => ({ role: turn.role, parts: turn.items })) };
}

/** `contents` → provider-neutral history. Calls without ids get `newId()`; responses match by id, else by name in order. */
export function fromGeminiContents(
  systemInstruction: { parts: { text: string }[] } | undefined,
  contents: readonly GeminiContent[],
  newId: () => string,
): ChatMessage[] {
  const out: ChatMessage[] = systemInstruction === undefined ? [] : [{ role: 'system', content: systemInstruction.parts.map((part) => part.text).join('') }];
  const calls = new CallLedger();
  for (const content of contents) {
    if (content.role === 'model') {
      let text = '';
      const toolCalls: ToolCallPart[] = [];
      for (const part of content.parts) {
        if ('text' in part && part.thought !== true) text += part.text;
        else if ('functionCall' in part) {
          const id = part.functionCall.id ?? newId();
          const call = { id, name: part.functionCall.name, arguments: JSON.stringify(part.functionCall.args) };
          toolCalls.push(part.thoughtSignature === undefined ? call : { ...call, providerData: { thoughtSignature: part.thoughtSignature } });
          calls.record(id, part.functionCall.name);
        }
      }
      out.push(assistantMessage(text, toolCalls));
      continue;
    }
    for (const part of content.parts) {
      if ('text' in part) out.push({ role: 'user', content: part.text });
      else if ('functionResponse' in part) {
        const response = part.functionResponse;
        const call = calls.answer(response.id, response.name);
        out.push({ role: 'tool', toolCallId: call?.id ?? response.id ?? newId(), name: response.name, result: response.response as JsonValue });
      }
    }
  }
  return out;
}

export function toGeminiTools(tools: readonly ToolDefinition[]): GeminiTools[] {
  if (tools.length === 0) return [];
  return [{ functionDeclarations: tools.map((tool) => ({ name: tool.name, description: tool.description, parametersJsonSchema: tool.parameters })) }];
}
