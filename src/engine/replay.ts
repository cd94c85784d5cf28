import type { ItemRecord, TurnRecord } from '../store/index.js';
import type { ChatEvent, PlanEvent } from './events.js';
import type { TurnPlan } from '../router/index.js';
import { confirmationRequestOf, errorOf, isPlanItem, itemText, planItemOf, toolCallOf, toolResultOf } from './journal.js';
import { describeMutation } from './tool-step.js';
import { parsedArguments } from './turn-run.js';

/**
 * The events of a turn as its journal tells them (a repeated request key, a reconnecting client):
 * calls, results, each committed text as one chunk, a pending confirmation, and the terminal event.
 */
export function replayEvents(turn: TurnRecord, turnItems: readonly ItemRecord[]): ChatEvent[] {
  const base = { thread_id: turn.threadId, turn_id: turn.id };
  const events: ChatEvent[] = [];
  for (const item of turnItems) {
    switch (item.kind) {
      case 'assistant_text':
        if (itemText(item) !== '') events.push({ ...base, type: 'text_chunk', content: itemText(item) });
        break;
      case 'tool_call': {
        const call = toolCallOf(item);
        events.push({ ...base, type: 'tool_call', id: call.callId, name: call.name, args: parsedArguments(call.arguments) });
        break;
      }
      case 'tool_result': {
        const result = toolResultOf(item);
        events.push({ ...base, type: 'tool_result', id: result.callId, name: result.name, result: result.result });
        break;
      }
      case 'confirmation_request': {
        const request = confirmationRequestOf(item);
        const { mutation, input } = describeMutation(request.name, request.arguments);
        const event = { ...base, type: 'confirm_mutation' as const, id: request.confirmationId, mutation, input, expires_at: request.expiresAt };
        events.push(request.message === undefined ? event : { ...event, message: request.message });
        break;
      }
      default:
        if (isPlanItem(item)) events.push({ ...base, ...planEventOf(planItemOf(item).plan as unknown as TurnPlan) });
        break;
    }
  }
  if (turn.status === 'completed') {
    events.push({ ...base, type: 'done', usage: { input_tokens: turn.usage.inputTokens, output_tokens: turn.usage.outputTokens } });
  } else if (turn.status === 'failed' || turn.status === 'cancelled') {
    const last = [...turnItems].reverse().find((item) => item.kind === 'error');
    const error = last === undefined ? { code: turn.failureCode ?? 'chat_error', message: turn.failureMessage ?? '' } : errorOf(last);
    events.push({ ...base, type: 'error', code: error.code, message: error.message });
  }
  return events;
}

/** The `plan` event of a plan: its outcome, language and each step's kind, words, tool and arguments. */
export function planEventOf(plan: TurnPlan): Omit<PlanEvent, 'thread_id' | 'turn_id'> {
  return {
    type: 'plan',
    outcome: plan.outcome,
    language: plan.language,
    steps: plan.steps.map((step) => ({ kind: step.kind, text: step.text, tool: step.selection.tool, arguments: step.selection.arguments })),
  };
}
