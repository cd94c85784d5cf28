import type { ItemRecord, TurnRecord } from '../../store/index.js';
import { activeTurnStatuses } from '../../store/index.js';
import { answerOf, confirmationRequestOf, confirmationResolutionOf, questionOf, startsRun, withoutSuperseded } from '../shared/index.js';

/** A turn as a history shows it (docs/protocol.md, "Turn projections"): how it ended, when, and where its time went. */
export interface TurnProjection {
  /** `completed`, `failed`, `cancelled`; null while it is active. */
  readonly outcome: 'completed' | 'failed' | 'cancelled' | null;
  readonly started_at: number;
  /** Null while it is active. */
  readonly ended_at: number | null;
  /** From its start to its end, or to `now` while it is active. Milliseconds. */
  readonly elapsed_ms: number;
  /** Of which waiting: for a person (approvals and answers; a wait still open counts to `now`), and between runs (a failure or an answer, and its retry or regenerate). */
  readonly waiting_ms: number;
  /** The rest: the engine's work. */
  readonly work_ms: number;
  /** The items of its final answer: the latest run's text after its last tool result. */
  readonly answer_item_ids: readonly string[];
}

/** The projection of `turn` from its items (journal order, superseded ones too), at `now` (the engine's clock). */
export function turnProjection(turn: TurnRecord, turnItems: readonly ItemRecord[], now: number): TurnProjection {
  const active = activeTurnStatuses.includes(turn.status);
  const endedAt = active ? null : turn.updatedAt;
  const until = endedAt ?? now;
  const opened = new Map<string, number>();
  let waiting = 0;
  const close = (id: string, at: number): void => {
    const from = opened.get(id);
    if (from === undefined) return;
    opened.delete(id);
    waiting += Math.max(0, at - from);
  };
  let previous: ItemRecord | undefined;
  for (const item of turnItems) {
    if (startsRun(item) && previous !== undefined) waiting += Math.max(0, item.createdAt - previous.createdAt);
    previous = item;
    if (item.kind === 'confirmation_request') opened.set(`c:${confirmationRequestOf(item).confirmationId}`, item.createdAt);
    else if (item.kind === 'confirmation_resolution') close(`c:${confirmationResolutionOf(item).confirmationId}`, item.createdAt);
    else if (item.kind === 'question' && questionOf(item).source !== 'router') opened.set(`q:${questionOf(item).questionId}`, item.createdAt);
    else if (item.kind === 'answer') close(`q:${answerOf(item).questionId}`, item.createdAt);
  }
  for (const id of [...opened.keys()]) close(id, until);
  const elapsed = Math.max(0, until - turn.createdAt);
  const latest = withoutSuperseded(turnItems);
  const lastTool = latest.findLastIndex((item) => item.kind === 'tool_result' || item.kind === 'tool_call');
  const answer = latest.slice(lastTool + 1).filter((item) => item.kind === 'assistant_text').map((item) => item.id);
  return {
    outcome: active ? null : (turn.status as 'completed' | 'failed' | 'cancelled'),
    started_at: turn.createdAt,
    ended_at: endedAt,
    elapsed_ms: elapsed,
    waiting_ms: Math.min(waiting, elapsed),
    work_ms: Math.max(0, elapsed - waiting),
    answer_item_ids: answer,
  };
}
