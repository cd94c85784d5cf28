import { PlumbError } from '../core/index.js';
import type { ItemPageOptions, ThreadCursor, ThreadPageOptions, ThreadRecord, TitleSource, TurnRecord } from './types.js';
import { activeTurnStatuses, titleSources } from './types.js';

/** Checks shared by every store's pages, titles and forks, so that they refuse the same input. */

export function checkItemPage(options: ItemPageOptions): void {
  const { after, before, limit, maxBytes } = options;
  if (after === undefined && before === undefined) throw new PlumbError('store_invalid_record', 'An item page starts after an ordinal (0 for the start) or before one.');
  for (const [name, value] of [['after', after], ['before', before]] as const) {
    if (value !== undefined && (!Number.isInteger(value) || value < 0)) throw new PlumbError('store_invalid_record', `An item page's ${name} must be an ordinal (a whole number, 0 or more); got ${String(value)}.`);
  }
  if (!Number.isInteger(limit) || limit < 1) throw new PlumbError('store_invalid_record', `An item page's limit must be a positive integer; got ${String(limit)}.`);
  if (!Number.isInteger(maxBytes) || maxBytes < 1) throw new PlumbError('store_invalid_record', `An item page's maxBytes must be a positive integer; got ${String(maxBytes)}.`);
}

export function checkThreadPage(options: ThreadPageOptions): void {
  if (!Number.isInteger(options.limit) || options.limit < 1) throw new PlumbError('store_invalid_record', `A thread page's limit must be a positive integer; got ${String(options.limit)}.`);
  if (options.search !== undefined && typeof options.search !== 'string') throw new PlumbError('store_invalid_record', 'A thread search is a string.');
}

export function checkTitleSource(source: TitleSource | null): void {
  if (source !== null && !(titleSources as readonly string[]).includes(source)) {
    throw new PlumbError('store_invalid_record', `Unknown title source '${String(source)}'. Sources: ${titleSources.join(', ')} (or null).`);
  }
}

/**
 * How many of the leading items a page keeps: at most `limit`, while their data stays within
 * `maxBytes`, and always the first (a large item comes alone rather than stalling the pages).
 */
export function pageCut(sizes: readonly number[], limit: number, maxBytes: number): number {
  let bytes = 0;
  let kept = 0;
  for (const size of sizes) {
    if (kept >= limit || (kept > 0 && bytes + size > maxBytes)) break;
    bytes += size;
    kept++;
  }
  return kept;
}

/** The text a search lowers and looks in: case is ignored the way JavaScript lowers it. */
export function foldText(value: unknown): string {
  return typeof value === 'string' ? value.toLowerCase() : '';
}

/** Whether `thread` comes after `cursor` in an owner's list (most recently updated first, ties by creation, then id, both descending). */
export function afterCursor(thread: ThreadRecord, cursor: ThreadCursor): boolean {
  if (thread.updatedAt !== cursor.updatedAt) return thread.updatedAt < cursor.updatedAt;
  if (thread.createdAt !== cursor.createdAt) return thread.createdAt < cursor.createdAt;
  return thread.id < cursor.id;
}

export function cursorOf(thread: ThreadRecord): ThreadCursor {
  return { updatedAt: thread.updatedAt, createdAt: thread.createdAt, id: thread.id };
}

/** The request key of a turn copied into a fork: unique per owner, as request keys must be. */
export function forkRequestKey(forkId: string, turnId: string): string {
  return `fork:${forkId}:${turnId}`;
}

/**
 * What a turn copied into a fork keeps: its status and failure when all of its items were copied
 * and it had ended; otherwise it is `completed` at the cut.
 */
export function forkedTurnStatus(turn: TurnRecord, whole: boolean): Pick<TurnRecord, 'status' | 'failureCode' | 'failureMessage'> {
  if (whole && !activeTurnStatuses.includes(turn.status)) return { status: turn.status, failureCode: turn.failureCode, failureMessage: turn.failureMessage };
  return { status: 'completed', failureCode: null, failureMessage: null };
}
