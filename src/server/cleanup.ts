import { defaultRetentionLimit } from '../store/index.js';
import type { Store } from '../store/index.js';
import type { PlumbConfig } from '../config/index.js';
import { openConfiguredJournal } from './configured-journal.js';

export interface CleanupReport {
  readonly threadsDeleted: readonly string[];
  readonly confirmationsExpired: number;
  readonly confirmationsDeleted: number;
  readonly cutoff: string;
}

export interface CleanupOptions {
  /** The time of the run (ms since the epoch); default now. */
  readonly now?: number;
  /** Records deleted per transaction (default the store's `defaultRetentionLimit`, 500). */
  readonly batchSize?: number;
  /** Stops between batches; what was deleted stays deleted. */
  readonly signal?: AbortSignal;
}

/**
 * Retention over any store, through the store's own methods: lapsed pending confirmations are
 * resolved as expired; threads not updated for `ttlHours` are deleted with their turns, items and
 * confirmations (a thread whose turn is still active is kept); then every confirmation resolved
 * so far, including those just expired. Deletes go in batches of `batchSize`, one transaction
 * each, so that a large backlog never holds the database's write lock for long.
 */
export async function cleanupWithStore(store: Store, ttlHours: number, options: CleanupOptions = {}): Promise<CleanupReport> {
  const now = options.now ?? Date.now();
  const limit = options.batchSize ?? defaultRetentionLimit;
  const cutoff = now - ttlHours * 3_600_000;
  const expired = await store.expireConfirmations(now, 'expired');
  const threadsDeleted: string[] = [];
  for (;;) {
    options.signal?.throwIfAborted();
    const batch = await store.deleteThreadsUpdatedBefore(cutoff, { limit });
    threadsDeleted.push(...batch);
    if (batch.length < limit) break;
  }
  let confirmationsDeleted = 0;
  for (;;) {
    options.signal?.throwIfAborted();
    // "Before now + 1 ms": resolved at or before this run's time, so the sweep's own expiries go too.
    const count = await store.deleteConfirmationsResolvedBefore(now + 1, { limit });
    confirmationsDeleted += count;
    if (count < limit) break;
  }
  return { threadsDeleted, confirmationsExpired: expired.length, confirmationsDeleted, cutoff: new Date(cutoff).toISOString() };
}

/**
 * `plumb cleanup`: retention on the configured journal (the `store` setting, resolved from
 * `root`: a SQLite file or a PostgreSQL URL); nothing to do for an in-memory journal or a file that
 * does not exist yet.
 */
export async function cleanupStore(config: PlumbConfig, options: CleanupOptions & { readonly root?: string } = {}): Promise<CleanupReport> {
  const now = options.now ?? Date.now();
  const store = await openConfiguredJournal(config, options.root ?? process.cwd(), { clock: () => now });
  if (store === undefined) return { threadsDeleted: [], confirmationsExpired: 0, confirmationsDeleted: 0, cutoff: new Date(now - config.ttlHours * 3_600_000).toISOString() };
  try {
    return await cleanupWithStore(store, config.ttlHours, { ...options, now });
  } finally {
    await store.close();
  }
}
