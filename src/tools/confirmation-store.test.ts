import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { anonymous, userActor } from '../core/index.js';
import { createMemoryConfirmationStore, createSqliteConfirmationStore } from './index.js';
import type { ConfirmationStore, PendingConfirmation } from './index.js';

const alice = userActor('alice');
const t0 = new Date('2026-01-01T00:00:00.000Z');

function pending(id: string, expiresInMs = 30_000): PendingConfirmation {
  return {
    id,
    tool: 'mutate',
    arguments: { mutation: 'createTask', input: { title: 'x' } },
    argumentsHash: 'h',
    actor: alice,
    createdAt: t0.toISOString(),
    expiresAt: new Date(t0.getTime() + expiresInMs).toISOString(),
    state: 'pending',
  };
}

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

const stores: [string, () => ConfirmationStore][] = [
  ['memory', () => createMemoryConfirmationStore()],
  [
    'sqlite',
    () => {
      const dir = mkdtempSync(join(tmpdir(), 'plumb-confirm-'));
      const store = createSqliteConfirmationStore({ path: join(dir, 'c.sqlite') });
      cleanups.push(() => {
        store.close();
        rmSync(dir, { recursive: true, force: true });
      });
      return store;
    },
  ],
];

for (const [name, make] of stores) {
  describe(`the ${name} confirmation store`, () => {
    it('lets the same actor claim a pending record exactly once', async () => {
      const store = make();
      await store.create(pending('c1'));
      const outcomes = await Promise.all(Array.from({ length: 50 }, () => store.claim('c1', alice, t0)));
      expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(1);
      expect(outcomes.filter((outcome) => !outcome.ok && outcome.reason === 'used')).toHaveLength(49);
    });

    it('treats another actor like an unknown id and keeps the record pending', async () => {
      const store = make();
      await store.create(pending('c1'));
      expect(await store.claim('c1', userActor('bob'), t0)).toEqual({ ok: false, reason: 'unknown' });
      expect(await store.claim('c1', anonymous, t0)).toEqual({ ok: false, reason: 'unknown' });
      expect(await store.claim('zz', alice, t0)).toEqual({ ok: false, reason: 'unknown' });
      expect((await store.get('c1'))?.state).toBe('pending');
    });

    it('answers expired after expiresAt and records confirmation_timed_out', async () => {
      const store = make();
      await store.create(pending('c1', 10));
      expect(await store.claim('c1', alice, new Date(t0.getTime() + 10))).toEqual({ ok: false, reason: 'expired' });
      expect((await store.get('c1'))?.resolution).toEqual({ status: 'cancelled', reason: 'confirmation_timed_out' });
    });

    it('resolves once and sweeps only lapsed pending records', async () => {
      const store = make();
      await store.create(pending('early', 10));
      await store.create(pending('late', 1000));
      await store.create(pending('done', 10));
      await store.claim('done', alice, t0);
      await store.resolve('done', { status: 'executed', result: { ok: true } }, t0);
      await store.resolve('done', { status: 'cancelled', reason: 'user_rejected' }, t0);
      expect((await store.get('done'))?.resolution).toEqual({ status: 'executed', result: { ok: true } });
      const swept = await store.expire(new Date(t0.getTime() + 100));
      expect(swept.map((record) => record.id)).toEqual(['early']);
      expect(await store.expire(new Date(t0.getTime() + 100))).toEqual([]);
    });

    it('refuses a duplicate id', async () => {
      const store = make();
      await store.create(pending('c1'));
      await expect(store.create(pending('c1'))).rejects.toThrow();
    });
  });
}

describe('the sqlite confirmation store across handles', () => {
  it('shares pending confirmations between two handles on one file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'plumb-confirm-'));
    const first = createSqliteConfirmationStore({ path: join(dir, 'c.sqlite') });
    const second = createSqliteConfirmationStore({ path: join(dir, 'c.sqlite') });
    try {
      await first.create(pending('c1'));
      expect((await second.claim('c1', alice, t0)).ok).toBe(true);
      expect(await first.claim('c1', alice, t0)).toEqual({ ok: false, reason: 'used' });
    } finally {
      first.close();
      second.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
