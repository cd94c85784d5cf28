import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { describeWithPostgres } from '../../data/testing/postgres.js';
import { openPostgresStore } from '../../postgres/index.js';
import { openSqliteStore } from '../../store/index.js';
import type { Store } from '../../store/index.js';
import { tempDirEach } from '../../../test/support/temp.js';
import { collect } from '../index.js';
import { alice, key, makeKit } from '../../../test/support/engine-kit.js';
import type { Kit } from '../../../test/support/engine-kit.js';

/** Two handles on one journal stand for two processes: each engine has its own connection and lease. */
type OpenJournal = () => Promise<Store>;

function leaseCases(open: () => OpenJournal): void {
  const kits: Kit[] = [];
  const stores: Store[] = [];
  afterEach(async () => {
    for (const made of kits.splice(0)) await made.engine.close();
    for (const store of stores.splice(0)) await store.close();
  });
  const handle = async (journal: OpenJournal): Promise<Store> => {
    const store = await journal();
    stores.push(store);
    return store;
  };

  it("leaves a live turn of engine A alone when engine B starts on the same journal, and A finishes it cleanly", async () => {
    const journal = open();
    let release = (): void => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const a = makeKit({ completions: [{ toolCalls: [{ id: 't1', name: 'touch', arguments: { id: 7 } }] }, { text: 'Touched.' }] }, {}, { store: await handle(journal), gate });
    kits.push(a);
    const answered = collect(a.engine.send({ actor: alice, requestKey: key(), text: 'touch part 7' }));
    for (let i = 0; i < 500 && a.writes.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(a.writes).toHaveLength(1);
    const b = makeKit({ completions: [{ text: 'unused' }] }, {}, { store: await handle(journal) });
    kits.push(b);
    await b.engine.ready;
    expect(await b.engine.recover()).toBe(0);
    const [thread] = await b.store.listThreads('user:alice');
    const [turn] = await b.store.listTurns(thread!.id);
    expect(turn).toMatchObject({ status: 'running', failureCode: null });
    release();
    expect((await answered).answer).toBe('Touched.');
    expect(await b.store.getTurn(turn!.id)).toMatchObject({ status: 'completed', failureCode: null });
    expect((await b.store.listItems(thread!.id)).map((item) => item.kind)).not.toContain('error');
  });

  it("ends a turn whose engine's lease lapsed, once, with the outcome its items show", async () => {
    const journal = open();
    const dead = await handle(journal);
    await dead.acquireLease({ id: 'dead-engine', holder: 'gone:1', ttlMs: 2000 });
    const thread = await dead.createThread({ owner: 'user:alice' });
    const begun = await dead.beginTurn({ threadId: thread.id, requestKey: key(), input: 'touch part 7', lease: 'dead-engine' });
    await dead.appendItems(begun.turn.id, [{ kind: 'tool_call', data: { callId: 'w', name: 'touch', arguments: '{"id":7}', effect: 'write', step: 1 } }], { status: 'running' });
    const b = makeKit({ completions: [{ text: 'unused' }] }, {}, { store: await handle(journal) });
    kits.push(b);
    await b.engine.ready;
    expect(await b.store.getTurn(begun.turn.id)).toMatchObject({ status: 'running' });
    const lapsesAt = (await b.store.getLease('dead-engine'))!.expiresAt;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, lapsesAt - Date.now()) + 20));
    expect(await b.engine.recover()).toBe(1);
    expect(await b.engine.recover()).toBe(0);
    expect(await b.store.getTurn(begun.turn.id)).toMatchObject({ status: 'failed', failureCode: 'effect_outcome_unknown' });
    expect(await dead.renewLease('dead-engine', 2000)).toBeUndefined();
  });

  it("ends another process's lapsed turns by itself, at a heartbeat", async () => {
    const journal = open();
    const dead = await handle(journal);
    await dead.acquireLease({ id: 'dead-engine', holder: 'gone:1', ttlMs: 300 });
    const thread = await dead.createThread({ owner: 'user:alice' });
    const begun = await dead.beginTurn({ threadId: thread.id, requestKey: key(), input: 'hello', lease: 'dead-engine' });
    const b = makeKit({ completions: [{ text: 'unused' }] }, { leaseSeconds: 0.3 }, { store: await handle(journal) });
    kits.push(b);
    await b.engine.ready;
    for (let i = 0; i < 200 && (await b.store.getTurn(begun.turn.id))?.status !== 'failed'; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await b.store.getTurn(begun.turn.id)).toMatchObject({ status: 'failed', failureCode: 'interrupted' });
  });

  it("gives a turn resumed on another engine that engine's lease", async () => {
    const journal = open();
    const a = makeKit({ completions: [{ toolCalls: [{ id: 'w', name: 'create_part', arguments: { name: 'A' } }] }] }, {}, { store: await handle(journal) });
    kits.push(a);
    const paused = await a.engine.ask({ actor: alice, requestKey: key(), text: 'create A' });
    const confirm = paused.events.at(-1)!;
    const turnId = paused.events[0]!.turn_id;
    const before = (await a.store.getTurn(turnId))!.lease;
    expect(before).not.toBeNull();
    const b = makeKit({ completions: [{ text: 'Created.' }] }, {}, { store: await handle(journal) });
    kits.push(b);
    let resumedUnder: string | null = null;
    b.engine.on('mutationExecuted', () => undefined);
    const resumed = collect(b.engine.confirm({ actor: alice, confirmationId: confirm.type === 'confirm_mutation' ? confirm.id : '', confirmed: true }));
    for (let i = 0; i < 200 && resumedUnder === null; i++) {
      const turn = await b.store.getTurn(turnId);
      if (turn?.lease !== before) resumedUnder = turn?.lease ?? null;
      else await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect((await resumed).answer).toBe('Created.');
    expect(resumedUnder).not.toBeNull();
    expect(resumedUnder).not.toBe(before);
    expect(await b.store.getLease(resumedUnder!)).toBeDefined();
    expect(b.writes).toHaveLength(1);
  });
}

describe('leases on one SQLite journal', () => {
  const dir = tempDirEach('plumb-leases-');
  leaseCases(() => {
    const path = join(dir.path, `journal-${key()}.db`);
    return () => openSqliteStore({ path });
  });
});

describeWithPostgres('leases on one PostgreSQL journal', (server) => {
  leaseCases(() => {
    let schema: Promise<string> | undefined;
    return async () => openPostgresStore({ url: server.url, schema: await (schema ??= server.freshSchema()), max: 4 });
  });
});
