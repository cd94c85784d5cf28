import type { JsonValue } from '../../core/index.js';
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
 * Provider-neutral history → `systemInstruction` and `contents`. Function responses travel in a
 * user turn; a result that is not an object is wrapped as `{ result }` (the API wants an object);
 * consecutive turns of one role merge.
 */
export function toGeminiContents(messages: readonly ChatMessage[]): { systemInstruction: { parts: { text: string }[] } | undefined; contents: GeminiContent[] } {
  const system: string[] = [];
  const contents: GeminiContent[] = [];
  const append = (role: 'user' | 'model', parts: GeminiPart[]): void => {
    const last = contents[contents.length - 1];
    if (last !== undefined && last.role === role) last.parts.push(...parts);
    else contents.push({ role, parts });
  };
  for (const message of messages) {
    switch (message.role) {
      case 'system':
        system.push(message.content);
        break;
      case 'user':
        append('user', [{ text: message.content }]);
        break;
      case 'assistant': {
        const parts: GeminiPart[] = [];
        if (message.content !== '') parts.push({ text: message.content });
        for (const call of message.toolCalls ?? []) {
          const signature = call.providerData?.thoughtSignature;
          const functionCall = { id: call.id, name: call.name, args: argumentsObject(call.arguments) };
          parts.push(typeof signature === 'string' ? { functionCall, thoughtSignature: signature } : { functionCall });
        }
        if (parts.length > 0) append('model', parts);
        break;
      }
      case 'tool':
        append('user', [{ functionResponse: { id: message.toolCallId, name: message.name, response: responseObject(message.result) } }]);
        break;
    }
  }
  return { systemInstruction: system.length === 0 ? undefined : { parts: [{ text: system.join('\n\n') }] }, contents };
}

/** `contents` → provider-neutral history. Calls without ids get `newId()`; responses match by id, else by name in order. */
export function fromGeminiContents(
  systemInstruction: { parts: { text: string }[] } | undefined,
  contents: readonly GeminiContent[],
  newId: () => string,
): ChatMessage[] {
  const out: ChatMessage[] = systemInstruction === undefined ? [] : [{ role: 'system', content: systemInstruction.parts.map((part) => part.text).join('') }];
  const open: { id: string; name: string }[] = [];
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
          open.push({ id, name: part.functionCall.name });
        }
      }
      out.push(toolCalls.length === 0 ? { role: 'assistant', content: text } : { role: 'assistant', content: text, toolCalls });
      continue;
    }
    for (const part of content.parts) {
      if ('text' in part) out.push({ role: 'user', content: part.text });
      else if ('functionResponse' in part) {
        const response = part.functionResponse;
        const at = open.findIndex((call) => (response.id === undefined ? call.name === response.name : call.id === response.id));
        const call = at === -1 ? undefined : open.splice(at, 1)[0];
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

function argumentsObject(text: string): Record<string, unknown> {
  try {
    const value = JSON.parse(text) as unknown;
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // fall through
  }
  return { _raw: text };
}

/** The API wants an object: other results are sent as `{ result }` (and come back that way). */
function responseObject(result: JsonValue): Record<string, unknown> {
  if (typeof result === 'object' && result !== null && !Array.isArray(result)) return result as Record<string, unknown>;
  return { result };
}
