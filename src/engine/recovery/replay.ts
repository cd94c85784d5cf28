import type { ItemRecord, TurnRecord } from '../../store/index.js';
import type { ChatEvent } from '../shared/index.js';
import type { ValueSource } from '../../answers/index.js';
import type { TurnPlan } from '../../router/index.js';
import { confirmationRequestOf, draftOf, errorOf, isPlanItem, itemStep, itemText, planItemOf, questionOf, retryReason, textMarks, toolCallOf, toolResultOf } from '../shared/index.js';
import { questionEvent } from '../thread/index.js';
import { describeMutation, planEventOf } from '../shared/index.js';
import { parsedArguments, runIdOf, startsRun, withoutSuperseded } from '../shared/index.js';

/**
 * The events of a turn as its journal tells them (a repeated request key, a reconnecting client):
 * calls, results, each committed text as one chunk, a pending confirmation, and the terminal event.
 * A regenerated turn tells its latest run only: the superseded one's items stay in the journal.
 */
export function replayEvents(turn: TurnRecord, journaled: readonly ItemRecord[]): ChatEvent[] {
  const turnItems = withoutSuperseded(journaled);
  // Each item's run, counted over every mark (a superseded run's too).
  const runs = new Map<string, string>();
  let run = 1;
  for (const item of journaled) {
    if (startsRun(item)) run += 1;
    runs.set(item.id, runIdOf(turn.id, run));
  }
  const latest = { thread_id: turn.threadId, turn_id: turn.id, run_id: runIdOf(turn.id, run) };
  const events: ChatEvent[] = [];
  // Streamed text of a round that never committed its own text (the turn stopped mid-stream): shown as it was.
  const drafts = new Map<number, string>();
  const stepsWithText = new Set<number>();
  for (const item of turnItems) {
    if (item.kind === 'assistant_text' || item.kind === 'tool_call') stepsWithText.add(itemStep(item));
    else if (item.kind === 'text_draft') drafts.set(draftOf(item).step, `${drafts.get(draftOf(item).step) ?? ''}${draftOf(item).text}`);
    else if (item.kind === 'retry_marker' && retryReason(item) === 'provider') drafts.delete(itemStep(item));
  }
  for (const item of turnItems) {
    const base = { ...latest, run_id: runs.get(item.id) ?? latest.run_id };
    switch (item.kind) {
      case 'user_text': {
        const data = item.data as { queueId?: unknown; steered?: unknown };
        if (data.steered === true && typeof data.queueId === 'string') events.push({ ...base, type: 'steer', queue_id: data.queueId, text: itemText(item) });
        break;
      }
      case 'question':
        events.push({ ...base, ...questionEvent(questionOf(item)) });
        break;
      case 'assistant_text':
        if (itemText(item) !== '') {
          const provenance = (item.data as { provenance?: unknown }).provenance;
          events.push({ ...base, type: 'text_chunk', content: itemText(item), ...(Array.isArray(provenance) ? { provenance: provenance as ValueSource[] } : {}) });
        }
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
        if (isPlanItem(item)) {
          const { plan, next } = planItemOf(item);
          events.push({ ...base, ...planEventOf(plan as unknown as TurnPlan, next) });
        }
        break;
    }
  }
  const base = latest;
  for (const [step, text] of drafts) if (!stepsWithText.has(step) && text !== '') events.push({ ...base, type: 'text_chunk', content: text });
  if (turn.status === 'completed') {
    const usage = { input_tokens: turn.usage.inputTokens, output_tokens: turn.usage.outputTokens };
    const answer = turnItems.findLast((item) => item.kind === 'assistant_text');
    events.push(answer !== undefined && textMarks(answer).truncated ? { ...base, type: 'done', usage, truncated: true } : { ...base, type: 'done', usage });
  } else if (turn.status === 'failed' || turn.status === 'cancelled') {
    const last = [...turnItems].reverse().find((item) => item.kind === 'error');
    const error = last === undefined ? { code: turn.failureCode ?? 'chat_error', message: turn.failureMessage ?? '' } : errorOf(last);
    events.push({ ...base, type: 'error', code: error.code, message: error.message });
  }
  return events;
}
