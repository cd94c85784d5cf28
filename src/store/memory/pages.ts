import { notFound } from '../records.js';
import { afterCursor, checkItemPage, checkThreadPage, checkTitleSource, cursorOf, foldText, forkRequestKey, forkedTurnStatus, pageCut } from '../pages.js';
import type { ForkThreadInput, ItemPage, ItemPageOptions, ItemRecord, ThreadPage, ThreadPageOptions, ThreadRecord, TitleSource, TurnRecord } from '../types.js';
import { addThread, requestKeyOf, threadState } from './journal.js';
import type { MemoryJournal } from './journal.js';
import { ownedThreads } from './threads.js';

/** The memory store's pages of threads and items, titles and forks (docs/store.md, "Pages"). */

export function pageThreads(j: MemoryJournal, owner: string, options: ThreadPageOptions): ThreadPage {
  checkThreadPage(options);
  const search = options.search === undefined || options.search === '' ? undefined : foldText(options.search);
  const kept: ThreadRecord[] = [];
  for (const record of ownedThreads(j, owner)) {
    if (options.after !== undefined && !afterCursor(record, options.after)) continue;
    if (search !== undefined && !matches(j, record, search)) continue;
    kept.push(record);
    if (kept.length > options.limit) break;
  }
  const threads = kept.slice(0, options.limit);
  return { threads, next: kept.length > options.limit ? cursorOf(threads[threads.length - 1]!) : null };
}

function matches(j: MemoryJournal, record: ThreadRecord, search: string): boolean {
  if (foldText(record.title).includes(search)) return true;
  const state = j.threads.get(record.id);
  return state?.items.some((item) => (item.kind === 'user_text' || item.kind === 'assistant_text') && foldText((item.data as { text?: unknown } | null)?.text).includes(search)) === true;
}

export function setThreadTitle(j: MemoryJournal, id: string, title: string | null, source: TitleSource | null, onlyIf: readonly (TitleSource | null)[] | undefined): ThreadRecord | undefined {
  checkTitleSource(source);
  const state = j.threads.get(id);
  if (state === undefined || (onlyIf !== undefined && !onlyIf.includes(state.record.titleSource))) return undefined;
  state.record = Object.freeze({ ...state.record, title, titleSource: source });
  return state.record;
}

export function forkThread(j: MemoryJournal, input: ForkThreadInput): ThreadRecord {
  const source = threadState(j, input.threadId);
  const through = input.throughOrdinal;
  if (!Number.isInteger(through) || through < 0 || through > source.items.length) throw notFound('item', `${input.threadId} #${String(through)}`);
  const now = j.clock();
  const owner = source.record.owner;
  const fork = addThread(j, owner, input.title === undefined ? source.record.title : input.title, now);
  const lastOrdinalOf = new Map<string, number>();
  for (const item of source.items) lastOrdinalOf.set(item.turnId, item.ordinal);
  const copies = new Map<string, string>();
  for (const item of source.items.slice(0, through)) {
    let turnId = copies.get(item.turnId);
    if (turnId === undefined) {
      const original = j.turns.get(item.turnId);
      turnId = j.ids();
      copies.set(item.turnId, turnId);
      if (original !== undefined) {
        const turn: TurnRecord = Object.freeze({
          ...original,
          id: turnId,
          threadId: fork.record.id,
          requestKey: forkRequestKey(fork.record.id, original.id),
          ...forkedTurnStatus(original, (lastOrdinalOf.get(original.id) ?? 0) <= through),
          usage: Object.freeze({ inputTokens: 0, outputTokens: 0 }),
          lease: null,
          updatedAt: now,
        });
        j.turns.set(turnId, turn);
        j.requestKeys.set(requestKeyOf(owner, turn.requestKey), turnId);
        fork.turnIds.push(turnId);
      }
    }
    fork.items.push(Object.freeze({ ...item, threadId: fork.record.id, turnId }));
  }
  const marker = source.record.summaryThroughItemId;
  const summaryKept = marker !== null && fork.items.some((item) => item.id === marker);
  fork.record = Object.freeze({
    ...fork.record,
    titleSource: source.record.titleSource,
    forkedFrom: Object.freeze({ threadId: source.record.id, itemId: input.fromItemId }),
    ...(summaryKept ? { summary: source.record.summary, summaryThroughItemId: marker } : {}),
  });
  return fork.record;
}

export function pageItems(j: MemoryJournal, threadId: string, options: ItemPageOptions): ItemPage {
  checkItemPage(options);
  const items = j.threads.get(threadId)?.items ?? [];
  // Ordinals are 1, 2, 3…: the item with ordinal n sits at index n - 1.
  const low = Math.min(items.length, options.after ?? 0);
  const high = Math.min(items.length, options.before === undefined ? items.length : Math.max(0, options.before - 1));
  const range = items.slice(low, Math.max(low, high));
  const sizeOf = (item: ItemRecord): number => Buffer.byteLength(JSON.stringify(item.data));
  if (options.after !== undefined) {
    const kept = pageCut(range.slice(0, options.limit + 1).map(sizeOf), options.limit, options.maxBytes);
    return { items: range.slice(0, kept), more: kept < range.length };
  }
  const newest = range.slice(-options.limit - 1).reverse();
  const kept = pageCut(newest.map(sizeOf), options.limit, options.maxBytes);
  return { items: range.slice(range.length - kept), more: kept < range.length };
}
