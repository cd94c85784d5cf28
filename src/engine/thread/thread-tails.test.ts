import { describe, expect, it } from 'vitest';
import type { ItemRecord } from '../../store/index.js';
import { ThreadTails } from './thread-tails.js';

/** Items `from`..`to` of a thread whose turns are two items each (turn 1: ordinals 1 and 2). */
const items = (threadId: string, from: number, to: number): ItemRecord[] =>
  Array.from({ length: to - from + 1 }, (_, index) => ({
    id: `${threadId}-${from + index}`,
    threadId,
    turnId: `t${Math.ceil((from + index) / 2)}`,
    ordinal: from + index,
    kind: 'assistant_text' as const,
    data: { text: String(from + index) },
    createdAt: 0,
  }));

describe('ThreadTails', () => {
  it('gives the items after an ordinal when the kept tail ends just before the new turn and reaches back far enough', () => {
    const tails = new ThreadTails(100, 10);
    tails.remember('a', items('a', 1, 25));
    expect(tails.tail('a', 20, 25)?.map((item) => item.ordinal)).toEqual([21, 22, 23, 24, 25]);
    // Kept: the last 10 (16..25). Older than that, or a gap after 25, is not known here.
    expect(tails.tail('a', 10, 25)).toBeUndefined();
    expect(tails.tail('a', 20, 26)).toBeUndefined();
    expect(tails.tail('b', 0, 3)).toBeUndefined();
  });

  it('holds at most its bound in items, forgetting the thread used longest ago', () => {
    const tails = new ThreadTails(12, 10);
    tails.remember('a', items('a', 1, 5));
    tails.remember('b', items('b', 1, 5));
    expect(tails.tail('a', 0, 5)).toHaveLength(5);
    tails.remember('c', items('c', 1, 5));
    expect(tails.tail('b', 0, 5)).toBeUndefined();
    expect(tails.tail('a', 0, 5)).toHaveLength(5);
    expect(tails.tail('c', 0, 5)).toHaveLength(5);
    tails.forget('a');
    expect(tails.tail('a', 0, 5)).toBeUndefined();
  });

  it("does not keep a thread's first turn, nor let it push out another thread's tail; keeps the thread from its second turn", () => {
    const tails = new ThreadTails(6, 10);
    tails.remember('a', items('a', 1, 5));
    tails.remember('b', items('b', 1, 2));
    expect(tails.tail('b', 0, 2)).toBeUndefined();
    expect(tails.tail('a', 0, 5)).toHaveLength(5);
    tails.remember('b', items('b', 1, 4));
    expect(tails.tail('b', 0, 4)).toHaveLength(4);
    expect(tails.tail('a', 0, 5)).toBeUndefined();
  });

  it('keeps every item from the ordinal the next context starts at, when that is more than its per-thread count, within its bound', () => {
    const tails = new ThreadTails(30, 10);
    tails.remember('a', items('a', 1, 25), 4);
    expect(tails.kept('a', 25)?.map((item) => item.ordinal)).toEqual(Array.from({ length: 22 }, (_, index) => index + 4));
    expect(tails.kept('a', 26)).toBeUndefined();
    tails.remember('b', items('b', 1, 25), 20);
    expect(tails.kept('b', 25)).toHaveLength(10);
    tails.remember('c', items('c', 1, 40), 1);
    expect(tails.kept('c', 40)).toHaveLength(30);
  });

  it('keeps a run’s converted history with its items while they reach back to where it starts, and only while it ends where they end', () => {
    const tails = new ThreadTails(30, 10);
    const history = (startOrdinal: number, through: number) => ({ startOrdinal, through, messages: [{ role: 'user' as const, content: 'q' }], raw: 7, cut: false });
    tails.remember('a', items('a', 1, 25), 4, history(4, 25));
    expect(tails.history('a')).toEqual(history(4, 25));
    // Its items were cut to the bound (ordinals 11..40): a history from ordinal 1 is not kept with them.
    tails.remember('b', items('b', 1, 40), 1, history(0, 40));
    expect(tails.kept('b', 40)).toHaveLength(30);
    expect(tails.history('b')).toBeUndefined();
    // A history that does not end at the kept items' last ordinal is not given.
    tails.remember('c', items('c', 1, 6), 1, history(0, 5));
    expect(tails.history('c')).toBeUndefined();
    tails.forget('a');
    expect(tails.history('a')).toBeUndefined();
  });

  it('keeps nothing with a bound of 0', () => {
    const tails = new ThreadTails(0, 10);
    tails.remember('a', items('a', 1, 5));
    expect(tails.tail('a', 0, 5)).toBeUndefined();
  });
});
