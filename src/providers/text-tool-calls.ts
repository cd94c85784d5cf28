import type { FinishReason, ProviderEvent, ToolDefinition } from './protocol.js';

/**
 * Reads a completion's whole text as a tool call when it is a single JSON object (bare or in one
 * code fence) naming an advertised tool, with its arguments under `arguments`, `parameters`,
 * `args` or `input` (or a `function: { name, arguments }` wrapper). Anything else → undefined.
 */
export function parseTextToolCall(
  text: string,
  tools: readonly ToolDefinition[],
): { readonly name: string; readonly arguments: string } | undefined {
  let body = text.trim();
  const fence = /^```(?:json)?\s*\n?([\s\S]*?)\n?```$/.exec(body);
  if (fence !== null) body = (fence[1] ?? '').trim();
  if (!body.startsWith('{') || !body.endsWith('}')) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
  let record = parsed as Record<string, unknown>;
  if (typeof record.function === 'object' && record.function !== null && !Array.isArray(record.function)) {
    record = record.function as Record<string, unknown>;
  }
  const name = typeof record.name === 'string' ? record.name : typeof record.tool === 'string' ? record.tool : undefined;
  if (name === undefined || !tools.some((tool) => tool.name === name)) return undefined;
  const args = record.arguments ?? record.parameters ?? record.args ?? record.input ?? {};
  if (typeof args === 'string') {
    try {
      const inner = JSON.parse(args) as unknown;
      if (typeof inner !== 'object' || inner === null || Array.isArray(inner)) return undefined;
    } catch {
      return undefined;
    }
    return { name, arguments: args };
  }
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return undefined;
  return { name, arguments: JSON.stringify(args) };
}

/**
 * Applies `parseTextToolCalls` to a stream: while the text so far could still be a JSON tool call
 * (it starts with `{` or a code fence) it is held back; as soon as it cannot, it streams as usual.
 * At the end, held text that names an advertised tool becomes a `tool_call` (finish reason
 * `tool_calls`) when the completion made no native call; otherwise it is released as text.
 */
export async function* recognizeTextToolCalls(
  events: AsyncIterable<ProviderEvent>,
  tools: readonly ToolDefinition[],
  newId: () => string,
): AsyncGenerator<ProviderEvent, void, undefined> {
  if (tools.length === 0) {
    yield* events;
    return;
  }
  let held = '';
  let holding = true;
  let nativeCall = false;
  for await (const event of events) {
    if (event.type === 'text' && holding) {
      held += event.text;
      const start = held.trimStart();
      if (start === '' || start.startsWith('{') || '```'.startsWith(start.slice(0, 3)) || start.startsWith('```')) continue;
      holding = false;
      yield { type: 'text', text: held };
      held = '';
      continue;
    }
    if (event.type === 'tool_call') nativeCall = true;
    if (event.type === 'done' && held !== '') {
      const call = nativeCall ? undefined : parseTextToolCall(held, tools);
      if (call === undefined) {
        yield { type: 'text', text: held };
        yield event;
      } else {
        yield { type: 'tool_call', id: newId(), name: call.name, arguments: call.arguments };
        const finishReason: FinishReason = event.finishReason === 'stop' ? 'tool_calls' : event.finishReason;
        yield { type: 'done', finishReason };
      }
      held = '';
      continue;
    }
    yield event;
  }
  if (held !== '') yield { type: 'text', text: held };
}
