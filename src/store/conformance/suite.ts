import type { describe, expect, it } from 'vitest';
import type { NewConfirmation, Store, ThreadRecord, TurnRecord, ItemRecord } from '../types.js';

/** What a store fixture gives the suite (see `runStoreConformance`). */
export interface StoreFixture {
  readonly store: Store;
  /** Opens the same data again (durable stores only); the suite closes `store` first. */
  readonly reopen?: () => Promise<Store>;
  readonly cleanup?: () => Promise<void>;
}

export interface StoreConformanceOptions {
  readonly name: string;
  /** A durable store also runs the reopen cases (its fixture must offer `reopen`). */
  readonly durable: boolean;
  /** `clock` must be used by the store as its clock, so that the suite controls time. */
  readonly open: (clock: () => number) => Promise<StoreFixture>;
}

/**
 * What each group of cases runs on: the current case's store and fixture, the clock's `now` (a
 * case moves it on), and vitest's functions handed over by `runStoreConformance`, so that the
 * suite's entry stays the one file of the package that loads vitest (plumb/testing alone needs it).
 */
export interface ConformanceSuite {
  readonly vitest: { readonly describe: typeof describe; readonly it: typeof it; readonly expect: typeof expect };
  readonly options: StoreConformanceOptions;
  readonly fixture: StoreFixture;
  readonly store: Store;
  now: number;
  /** Stores a case opened itself (a reopen), closed after it. */
  readonly extraStores: Store[];
  /** A thread of `owner`'s with one created turn. */
  threadWithTurn(owner?: string, requestKey?: string, input?: string): Promise<{ readonly thread: ThreadRecord; readonly turn: TurnRecord; readonly userItem: ItemRecord }>;
}

export function confirmation(id: string, threadId: string, turnId: string, owner: string, expiresAt: number): NewConfirmation {
  return { id, threadId, turnId, owner, actor: { kind: 'user', id: owner.slice(5), roles: [] }, callId: `call-${id}`, tool: 'mutate', arguments: { name: 'Bolt' }, digest: 'd', expiresAt };
}
