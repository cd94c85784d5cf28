import { PlumbError } from '../core/index.js';
import type { MigrationState } from '../core/index.js';
import type { PlumbConfig } from '../config/index.js';
import { emptyCensus, resolutionOutcome } from '../store/index.js';
import type { ConfirmationStatus, JournalCensus, Store, TurnStatus } from '../store/index.js';
import { openConfiguredJournal } from './configured-journal.js';

/** One thread as `plumb store inspect --thread` shows it: its turns and its confirmations, oldest first. */
export interface ThreadInspection {
  readonly thread: { readonly id: string; readonly owner: string; readonly title: string | null; readonly createdAt: string; readonly updatedAt: string };
  readonly turns: readonly { readonly id: string; readonly status: TurnStatus; readonly errorCode: string | null }[];
  readonly confirmations: readonly { readonly id: string; readonly tool: string; readonly status: ConfirmationStatus; readonly outcome: string | null; readonly resolvedAt: string | null }[];
}

/**
 * The journal's counts, its migrations and its bytes on disk (`JournalUpkeep.sizes`); `exists`
 * false when there is no journal yet (an in-memory one, or a file not made yet), which has none.
 */
export type JournalInspection = JournalCensus & { readonly exists: boolean; readonly migrations: MigrationState; readonly sizes: Readonly<Record<string, number>> };

const iso = (ms: number): string => new Date(ms).toISOString();

/**
 * `plumb store inspect`: what the configured journal holds, read through the store (a SQLite file
 * opened read-only): its counts, migrations and sizes, or with `threadId` that thread's turns and confirmations —
 * `store_not_found` when the journal has no such thread.
 */
export async function inspectStore(config: PlumbConfig, options: { readonly root: string; readonly threadId?: string }): Promise<JournalInspection | ThreadInspection> {
  const store = await openConfiguredJournal(config, options.root, { readonly: true });
  try {
    if (options.threadId !== undefined) return await inspectThread(store, options.threadId);
    if (store === undefined) return { exists: false, ...emptyCensus(), migrations: { applied: [], pending: [] }, sizes: {} };
    return { exists: true, ...(await store.census()), migrations: await store.migrations(), sizes: await store.sizes() };
  } finally {
    await store?.close();
  }
}

async function inspectThread(store: Store | undefined, id: string): Promise<ThreadInspection> {
  const thread = await store?.getThread(id);
  if (store === undefined || thread === undefined) {
    throw new PlumbError('store_not_found', `The journal has no thread '${id}'. Give the id of a thread it holds (a thread's id is in its console address and in plumb ask --json's events).`, { details: { threadId: id } });
  }
  const [turns, confirmations] = await Promise.all([store.listTurns(id), store.threadConfirmations(id)]);
  return {
    thread: { id: thread.id, owner: thread.owner, title: thread.title, createdAt: iso(thread.createdAt), updatedAt: iso(thread.updatedAt) },
    turns: turns.map((turn) => ({ id: turn.id, status: turn.status, errorCode: turn.failureCode })),
    confirmations: confirmations.map((c) => ({
      id: c.id,
      tool: c.tool,
      status: c.status,
      outcome: c.status === 'resolved' ? resolutionOutcome(c.resolution) : null,
      resolvedAt: c.resolvedAt === null ? null : iso(c.resolvedAt),
    })),
  };
}
