import type { JsonObject, JsonValue } from '../core/index.js';
import type { ChatMessage, ToolCallPart, ToolDefinition } from './protocol.js';

/*
 * The steps every wire format's message mapping shares. Each adapter's `*-messages.ts` keeps its
 * own wire shapes and says only how one text, call or result looks on its wire.
 */

export type AssistantMessage = Extract<ChatMessage, { role: 'assistant' }>;
export type ToolResultMessage = Extract<ChatMessage, { role: 'tool' }>;

/** A turn as the one-message-per-turn wires (Chat Completions, Ollama) send plain text. */
export interface TextMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/**
 * History → the messages of a wire with one message per turn: system and user text, and an
 * assistant turn without calls, pass as `{ role, content }`; the wire maps calls and results.
 */
export function toFlatMessages<M>(
  messages: readonly ChatMessage[],
  wire: { withCalls(message: AssistantMessage, calls: readonly ToolCallPart[]): M; result(message: ToolResultMessage): M },
): (M | TextMessage)[] {
  return messages.map((message) => {
    switch (message.role) {
      case 'system':
      case 'user':
        return { role: message.role, content: message.content };
      case 'assistant':
        if (message.toolCalls === undefined || message.toolCalls.length === 0) return { role: 'assistant', content: message.content };
        return wire.withCalls(message, message.toolCalls);
      case 'tool':
        return wire.result(message);
    }
  });
}

/** What `fromFlatMessages` needs of a one-message-per-turn wire's messages. */
export type FlatWireMessage = { role: 'system' | 'user'; content: string } | { role: 'assistant' } | { role: 'tool' };

/** A one-message-per-turn wire's messages → history: system and user text pass; the wire reads its assistant turns and results. */
export function fromFlatMessages<M extends FlatWireMessage>(
  messages: readonly M[],
  wire: { assistant(message: M & { role: 'assistant' }): AssistantMessage; result(message: M & { role: 'tool' }): ToolResultMessage },
): ChatMessage[] {
  return messages.map((message): ChatMessage => {
    if (isRole(message, 'assistant')) return wire.assistant(message);
    if (isRole(message, 'tool')) return wire.result(message);
    const text = message as M & { role: 'system' | 'user'; content: string };
    return { role: text.role, content: text.content };
  });
}

function isRole<M extends { role: string }, R extends string>(message: M, role: R): message is M & { role: R } {
  return message.role === role;
}

/** A tool as the wires that take OpenAI's function tools (Chat Completions, Ollama) declare it. */
export interface FunctionTool {
  type: 'function';
  function: { name: string; description: string; parameters: Readonly<Record<string, unknown>> };
}

export function toFunctionTools(tools: readonly ToolDefinition[]): FunctionTool[] {
  return tools.map((tool) => ({ type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.parameters } }));
}

/**
 * History → a wire that wants user and assistant turns to alternate (the Messages API, Gemini):
 * system messages join into one text apart; tool results travel in a user turn; consecutive turns
 * of one role merge; an assistant turn with neither text nor calls is left out.
 */
export function toAlternatingTurns<R, T>(
  messages: readonly ChatMessage[],
  wire: { user: R; assistant: R; text(text: string): T; call(call: ToolCallPart): T; result(message: ToolResultMessage): T },
): { system: string | undefined; turns: { role: R; items: T[] }[] } {
  const system: string[] = [];
  const turns: { role: R; items: T[] }[] = [];
  const append = (role: R, items: T[]): void => {
    const last = turns[turns.length - 1];
    if (last !== undefined && last.role === role) last.items.push(...items);
    else turns.push({ role, items });
  };
  for (const message of messages) {
    switch (message.role) {
      case 'system':
        system.push(message.content);
        break;
      case 'user':
        append(wire.user, [wire.text(message.content)]);
        break;
      case 'assistant': {
        const items = message.content === '' ? [] : [wire.text(message.content)];
        for (const call of message.toolCalls ?? []) items.push(wire.call(call));
        if (items.length > 0) append(wire.assistant, items);
        break;
      }
      case 'tool':
        append(wire.user, [wire.result(message)]);
        break;
    }
  }
  return { system: system.length === 0 ? undefined : system.join('\n\n'), turns };
}

/** An assistant turn read back from a wire; `toolCalls` only when there are some. */
export function assistantMessage(content: string, toolCalls: readonly ToolCallPart[] | undefined): AssistantMessage {
  return toolCalls === undefined || toolCalls.length === 0 ? { role: 'assistant', content } : { role: 'assistant', content, toolCalls };
}

/**
 * The calls a history made so far, read back in order, to recover what a tool result answers:
 * its tool's name (wires whose results carry only the call id) or its call (wires whose results
 * may carry only the tool's name).
 */
export class CallLedger {
  readonly #names = new Map<string, string>();
  readonly #open: { id: string; name: string }[] = [];

  record(id: string, name: string): void {
    this.#names.set(id, name);
    this.#open.push({ id, name });
  }

  /** The tool name of the call `id`, or `''` for a call the history never made. */
  nameOf(id: string): string {
    return this.#names.get(id) ?? '';
  }

  /** The open call a result answers: by id when it has one, else the first open call of that name; each call is answered once. */
  answer(id: string | undefined, name: string): { id: string; name: string } | undefined {
    const at = this.#open.findIndex((call) => (id === undefined ? call.name === name : call.id === id));
    return at === -1 ? undefined : this.#open.splice(at, 1)[0];
  }
}

/** A tool result's JSON text back to a value; text that is not JSON stays a string. */
export function parseToolResult(text: string): JsonValue {
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return text;
  }
}

/** Call arguments as the object wires that carry objects want; arguments that are not a JSON object are kept under `_raw`. */
export function argumentsObject(text: string): Record<string, unknown> {
  try {
    const value = JSON.parse(text) as unknown;
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // not JSON: kept raw below
  }
  return { _raw: text };
}

export function isJsonObject(value: JsonValue): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
