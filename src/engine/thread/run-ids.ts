import type { ItemRecord, Store } from '../../store/index.js';
import { RunReader } from '../shared/index.js';

/** A journal item with the run of its turn it belongs to (docs/protocol.md, "Runs"). */
export type RunItem = ItemRecord & { readonly runId: string };

/**
 * The items (in journal order) with their runs, read with `reader`: a fresh one for a page, a
 * live view's own as it follows the thread. A turn the reader has not seen begin (a page that
 * starts mid-turn) has its earlier items read from the journal once.
 */
export async function withRunIds(store: Store, items: readonly ItemRecord[], reader: RunReader = new RunReader()): Promise<RunItem[]> {
  const read: RunItem[] = [];
  for (const item of items) {
    let runId = reader.item(item);
    if (runId === undefined) {
      const earlier = (await store.listItems(item.threadId, { turnId: item.turnId })).filter((candidate) => candidate.ordinal < item.ordinal);
      reader.learn(item.turnId, earlier);
      runId = reader.item(item)!;
    }
    read.push({ ...item, runId });
  }
  return read;
}
