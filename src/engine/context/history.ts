import type { ChatMessage, ToolCallPart } from '../../providers/index.js';
import type { ItemRecord } from '../../store/index.js';
import { itemStep, itemText, textMarks, toolCallOf, toolResultOf } from '../shared/index.js';

/** Item kinds that become model messages; the rest (errors, markers, summaries) stay out. */
const messageKinds = new Set(['user_text', 'assistant_text', 'tool_call', 'tool_result']);

export interface ContextSelection {
  /** Older message items, to be covered by the summary. */
  readonly prefix: readonly ItemRecord[];
  /** Message items kept verbatim. */
  readonly recent: readonly ItemRecord[];
}

/**
 * Splits a thread's message items into an older prefix and the recent part: the newest items whose
 * tokens (`tokensOf`) fit in `budgetTokens`, taken a step at a time so that a tool call is never
 * separated from its results (nor from the rest of its step), and the current turn always whole,
 * whatever it costs.
 */
export function selectContext(items: readonly ItemRecord[], currentTurnId: string, budgetTokens: number, tokensOf: (item: ItemRecord) => number): ContextSelection {
  const messages = items.filter((item) => messageKinds.has(item.kind));
  const groups = groupIds(messages);
  const turnStart = messages.findIndex((item) => item.turnId === currentTurnId);
  let start = messages.length;
  let used = 0;
  while (start > 0) {
    let first = start - 1;
    while (first > 0 && groups[first - 1] === groups[first]) first--;
    let size = 0;
    for (let index = first; index < start; index++) size += tokensOf(messages[index]!);
    if (!(turnStart >= 0 && first >= turnStart) && used + size > budgetTokens) break;
    used += size;
    start = first;
  }
  return { prefix: messages.slice(0, start), recent: messages.slice(start) };
}

/** One id per message item: a step's text, calls and their results share one, and so does an answer's continuation. */
function groupIds(messages: readonly ItemRecord[]): string[] {
  const callGroups = new Map<string, string>();
  let lastText: string | undefined;
  return messages.map((item) => {
    if (item.kind === 'assistant_text' && lastText !== undefined && textMarks(item).continuation) return lastText;
    if (item.kind === 'assistant_text' || item.kind === 'tool_call') {
      const group = `${item.turnId}#${itemStep(item)}`;
      if (item.kind === 'tool_call') callGroups.set(`${item.turnId}#${toolCallOf(item).callId}`, group);
      else lastText = group;
      return group;
    }
    if (item.kind === 'tool_result') return callGroups.get(`${item.turnId}#${toolResultOf(item).callId}`) ?? item.id;
    return item.id;
  });
}

/** The result a model sees for a call that never finished (a crash, a cancel). */
export const unfinishedResult = { error: { code: 'interrupted', message: 'This call did not finish; its outcome is unknown.' } } as const;

/**
 * Provider-neutral messages from message items: a step's text and calls become one assistant
 * message, each result a tool message; a call without a result gets `unfinishedResult`, so that
 * every call is answered.
 */
export function toMessages(items: readonly ItemRecord[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  let open: { content: string; toolCalls: ToolCallPart[]; group: string } | undefined;
  let waiting: { id: string; name: string }[] = [];
  const answered = new Set<string>();
  for (const item of items) if (item.kind === 'tool_result') answered.add(`${item.turnId}#${toolResultOf(item).callId}`);
  // Methods, not arrows in consts: under tsx (esbuild keepNames) each such arrow is renamed at runtime, on every call.
  const ops = {
    flush(): void {
      if (open === undefined) return;
      out.push(open.toolCalls.length === 0 ? { role: 'assistant', content: open.content } : { role: 'assistant', content: open.content, toolCalls: open.toolCalls });
      open = undefined;
    },
    closeDangling(): void {
      for (const call of waiting) out.push({ role: 'tool', toolCallId: call.id, name: call.name, result: unfinishedResult });
      waiting = [];
    },
  };
  for (const item of items) {
    switch (item.kind) {
      case 'user_text':
        ops.flush();
        ops.closeDangling();
        out.push({ role: 'user', content: itemText(item) });
        break;
      case 'assistant_text':
      case 'tool_call': {
        const group = `${item.turnId}#${itemStep(item)}`;
        // A continuation of an answer cut at the length limit is the same message as the answer.
        if (open !== undefined && item.kind === 'assistant_text' && textMarks(item).continuation) open.group = group;
        if (open === undefined || open.group !== group) {
          ops.flush();
          ops.closeDangling();
          open = { content: '', toolCalls: [], group };
        }
        if (item.kind === 'assistant_text') open.content += itemText(item);
        else {
          const call = toolCallOf(item);
          open.toolCalls.push({ id: call.callId, name: call.name, arguments: call.arguments, ...(call.providerData === undefined ? {} : { providerData: call.providerData }) });
          if (!answered.has(`${item.turnId}#${call.callId}`)) waiting.push({ id: call.callId, name: call.name });
        }
        break;
      }
      case 'tool_result': {
        ops.flush();
        const result = toolResultOf(item);
        out.push({ role: 'tool', toolCallId: result.callId, name: result.name, result: result.result });
        break;
      }
      default:
        break;
    }
  }
  ops.flush();
  ops.closeDangling();
  return out;
}

/** A plain transcript of message items, for the summarizer. Tool results are cut to `maxResultChars`. */
export function transcript(items: readonly ItemRecord[], maxResultChars = 2000): string {
  const lines: string[] = [];
  for (const item of items) {
    if (item.kind === 'user_text') lines.push(`User: ${itemText(item)}`);
    else if (item.kind === 'assistant_text' && itemText(item) !== '') lines.push(`Assistant: ${itemText(item)}`);
    else if (item.kind === 'tool_call') {
      const call = toolCallOf(item);
      lines.push(`Assistant called ${call.name} ${call.arguments}`);
    } else if (item.kind === 'tool_result') {
      const result = toolResultOf(item);
      const json = JSON.stringify(result.result) ?? 'null';
      lines.push(`Tool ${result.name} answered ${json.length > maxResultChars ? `${json.slice(0, maxResultChars)}…` : json}`);
    }
  }
  return lines.join('\n');
}
