import type { ChatMessage, ToolCallPart } from '../providers/index.js';

/** A message as the GenAI conventions record it: a role and typed parts. */
interface ConventionMessage {
  readonly role: string;
  readonly parts: readonly Readonly<Record<string, unknown>>[];
}

function callParts(calls: readonly ToolCallPart[] | undefined): Readonly<Record<string, unknown>>[] {
  return (calls ?? []).map((call) => ({ type: 'tool_call', id: call.id, name: call.name, arguments: call.arguments }));
}

function conventionMessage(message: ChatMessage): ConventionMessage {
  switch (message.role) {
    case 'system':
    case 'user':
      return { role: message.role, parts: [{ type: 'text', content: message.content }] };
    case 'assistant':
      return { role: 'assistant', parts: [...(message.content === '' ? [] : [{ type: 'text', content: message.content }]), ...callParts(message.toolCalls)] };
    case 'tool':
      return { role: 'tool', parts: [{ type: 'tool_call_response', id: message.toolCallId, response: message.result }] };
    default:
      return message satisfies never;
  }
}

/** `gen_ai.input.messages`: the request's messages as JSON text. */
export function inputMessages(messages: readonly ChatMessage[]): string {
  return JSON.stringify(messages.map(conventionMessage));
}

/** `gen_ai.output.messages`: what the model answered, as one assistant message. */
export function outputMessage(text: string, calls: readonly ToolCallPart[], finishReason: string | undefined): string {
  return JSON.stringify([{ ...conventionMessage({ role: 'assistant', content: text, toolCalls: calls }), ...(finishReason === undefined ? {} : { finish_reason: finishReason }) }]);
}

/** A value as span text: strings as they are, anything else as JSON. */
export function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return '';
  }
}
