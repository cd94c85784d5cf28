import type { JsonValue, PlumbEvent, ThreadItem, ThreadViewEvent, ViewState } from './protocol.js';

type Data = Readonly<Record<string, JsonValue>>;

function dataOf(item: ThreadItem): Data {
  return item.data !== null && typeof item.data === 'object' && !Array.isArray(item.data) ? (item.data as Data) : {};
}
const text = (value: JsonValue | undefined): string => (typeof value === 'string' ? value : '');

function parsed(value: JsonValue | undefined): JsonValue {
  if (typeof value !== 'string') return value ?? null;
  try {
    return JSON.parse(value) as JsonValue;
  } catch {
    return value;
  }
}

/**
 * The running turn of a live view as the turn's own events (what a client that reconnects to a
 * turn it was streaming wants): the text shown so far, then the turn's items as `text_chunk`,
 * `tool_call`, `tool_result`, `confirm_mutation` and `error`, ending with `done` or `error` when
 * the turn ends (or pauses on a confirmation). Nothing when the view's thread has no active turn.
 */
export async function* runningTurnEvents(view: AsyncIterable<ThreadViewEvent>): AsyncGenerator<PlumbEvent> {
  let turnId: string | undefined;
  let threadId = '';
  let runId = '';
  const shown = new Map<number, string>();
  const base = (): { thread_id: string; turn_id: string; run_id: string } => ({ thread_id: threadId, turn_id: turnId ?? '', run_id: runId });
  for await (const event of view) {
    if (event.type === 'view' || event.type === 'resubscribe') {
      const state: ViewState = event.type === 'view' ? event : event.view;
      if (turnId === undefined) {
        const turn = state.turn;
        if (turn === null || !['accepted', 'running', 'waiting'].includes(turn.status)) return;
        turnId = turn.id;
        runId = turn.run_id;
        threadId = event.thread_id;
        if (state.text !== '') yield { ...base(), type: 'text_chunk', content: state.text };
        if (state.confirmation !== null) {
          yield { ...base(), type: 'confirm_mutation', ...state.confirmation };
          return;
        }
      }
      continue;
    }
    if (event.type === 'turn') {
      if (event.turn_id !== turnId) continue;
      if (event.status === 'completed') {
        yield { ...base(), type: 'done', usage: { input_tokens: 0, output_tokens: 0 } };
        return;
      }
      if (event.status === 'failed' || event.status === 'cancelled') return;
      continue;
    }
    if (event.type !== 'item' || event.turn_id !== turnId) continue;
    runId = event.run_id;
    const item = event.item;
    const data = dataOf(item);
    const step = typeof data.step === 'number' ? data.step : 0;
    switch (item.kind) {
      case 'text_draft':
        shown.set(step, (shown.get(step) ?? '') + text(data.text));
        yield { ...base(), type: 'text_chunk', content: text(data.text) };
        break;
      case 'assistant_text': {
        // The round's text was shown as it streamed; only what its drafts did not carry goes out now.
        const before = shown.get(step) ?? '';
        const whole = text(data.text);
        const rest = whole.startsWith(before) ? whole.slice(before.length) : whole;
        shown.delete(step);
        if (rest !== '') yield { ...base(), type: 'text_chunk', content: rest };
        break;
      }
      case 'retry_marker':
        if (data.reason === 'provider') {
          shown.delete(step);
          const timeout = data.timeout as { stage: 'first_byte' | 'between_events' | 'attempt'; elapsed_ms: number } | undefined;
          const nextAt = text(data.nextAt);
          yield {
            ...base(),
            type: 'retry',
            attempt: typeof data.attempt === 'number' ? data.attempt : 0,
            limit: typeof data.limit === 'number' ? data.limit : 0,
            code: text(data.code),
            reason: text(data.why),
            delay_ms: nextAt === '' ? 0 : Math.max(0, Date.parse(nextAt) - item.createdAt),
            next_at: nextAt,
            ...(timeout === undefined ? {} : { timeout }),
          };
        }
        break;
      case 'tool_call':
        yield { ...base(), type: 'tool_call', id: text(data.callId), name: text(data.name), args: parsed(data.arguments) };
        break;
      case 'tool_result':
        yield { ...base(), type: 'tool_result', id: text(data.callId), name: text(data.name), result: data.result ?? null };
        break;
      case 'confirmation_request': {
        const args = data.arguments;
        const mutate = text(data.name) === 'mutate' && args !== null && typeof args === 'object' && !Array.isArray(args) && typeof (args as Data).mutation === 'string';
        yield {
          ...base(),
          type: 'confirm_mutation',
          id: text(data.confirmationId),
          mutation: mutate ? text((args as Data).mutation) : text(data.name),
          input: mutate ? ((args as Data).input ?? {}) : (args ?? null),
          expires_at: text(data.expiresAt),
          ...(typeof data.message === 'string' ? { message: data.message } : {}),
        };
        return;
      }
      case 'error':
        yield { ...base(), type: 'error', code: text(data.code), message: text(data.message) };
        return;
      default:
        break;
    }
  }
}
