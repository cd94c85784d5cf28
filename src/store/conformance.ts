import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { censusCases } from './conformance/census.js';
import { confirmationCases } from './conformance/confirmations.js';
import { itemCases } from './conformance/items.js';
import { leaseCases } from './conformance/leases.js';
import { lifetimeCases } from './conformance/lifetime.js';
import { pageCases } from './conformance/pages.js';
import { queueCases } from './conformance/queue.js';
import { retentionCases } from './conformance/retention.js';
import type { ConformanceSuite, StoreConformanceOptions, StoreFixture } from './conformance/suite.js';
import { threadCases } from './conformance/threads.js';
import { turnCases } from './conformance/turns.js';
import type { Store } from './types.js';

export type { StoreConformanceOptions, StoreFixture } from './conformance/suite.js';

/**
 * The store contract as a suite every implementation runs (the way hono tests its routers):
 *
 *   runStoreConformance({ name: 'sqlite', open: async () => ({ store, reopen, cleanup }) })
 *
 * `open` gives a fresh, empty store with an injected clock (`now` is read through `clock`);
 * durable stores also give `reopen`, which closes nothing itself and opens the same data again.
 * The cases are in `conformance/`, a file for each part of the contract; this file alone loads
 * vitest and hands it to them.
 */
export function runStoreConformance(options: StoreConformanceOptions): void {
  describe(`store conformance: ${options.name}`, () => {
    let fixture: StoreFixture | undefined;
    const suite: ConformanceSuite = {
      vitest: { describe, it, expect },
      options,
      now: 1_000_000,
      extraStores: [],
      get fixture(): StoreFixture {
        if (fixture === undefined) throw new Error('the store fixture is open only while a case runs');
        return fixture;
      },
      get store(): Store {
        return this.fixture.store;
      },
      async threadWithTurn(owner = 'user:alice', requestKey = 'r1', input = 'hello') {
        const thread = await this.store.createThread({ owner });
        const begun = await this.store.beginTurn({ threadId: thread.id, requestKey, input });
        if (begun.outcome !== 'created') throw new Error('expected a created turn');
        return { thread, turn: begun.turn, userItem: begun.userItem };
      },
    };

    beforeEach(async () => {
      suite.now = 1_000_000;
      fixture = await options.open(() => suite.now);
    });

    afterEach(async () => {
      for (const extra of suite.extraStores.splice(0)) await extra.close();
      await suite.store.close();
      await suite.fixture.cleanup?.();
    });

    for (const cases of [threadCases, turnCases, itemCases, confirmationCases, leaseCases, queueCases, pageCases, retentionCases, censusCases, lifetimeCases]) cases(suite);
  });
}
