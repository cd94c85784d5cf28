import { nanoid } from 'nanoid';

/**
 * The store's default id generator: ids that sort in creation order, so that new threads,
 * turns and items land at the right edge of their B-trees (one page written per table and
 * commit, where random ids touch a random page each). 9 base-36 characters of the clock's
 * milliseconds, 4 of a counter within the millisecond, then 9 random characters
 * (so two processes creating ids in the same millisecond never collide in practice).
 * An id therefore shows when it was made.
 */
export function orderedIds(clock: () => number, random: () => string = () => nanoid(9)): () => string {
  let last = 0;
  let counter = 0;
  return () => {
    const now = Math.max(clock(), last);
    if (now === last) counter++;
    else {
      last = now;
      counter = 0;
    }
    return `${now.toString(36).padStart(9, '0')}${counter.toString(36).padStart(4, '0')}${random()}`;
  };
}

/**
 * The memory store's default: its records live in one process, so ids need only be unique
 * within the store — a random prefix per store and a counter, without drawing random bytes
 * for every record.
 */
export function counterIds(prefix: string = nanoid(10)): () => string {
  let counter = 0;
  return () => `${prefix}${(++counter).toString(36)}`;
}

/** Ids in the order `sort` gives strings: the tie-break of every ordering by time. */
export function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
