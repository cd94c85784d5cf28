import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../store/index.js';
import type { Store } from '../../store/index.js';
import { collect } from '../index.js';
import { classifyInterrupted } from './restart.js';
import { runMarks } from '../shared/index.js';
import { describeWithPostgres } from '../../data/testing/postgres.js';
import { openPostgresStore } from '../../postgres/index.js';
import { alice, key, makeKit } from '../../../test/support/engine-kit.js';
import type { Kit } from '../../../test/support/engine-kit.js';
import { tempDirEach } from '../../../test/support/temp.js';

const dir = tempDirEach('plumb-engine-');
const kits: Kit[] = [];
const stores: Store[] = [];
afterEach(async () => {
  for (const made of kits.splice(0)) await made.engine.close();
  for (const store of stores.splice(0)) await store.close();
});

async function open(): Promise<Store> {
  const store = await openSqliteStore({ path: join(dir.path, 'plumb.db') });
  stores.push(store);
  return store;
}

/** A turn left `running` by a process that died after committing `steps`. */
async function stranded(store: Store, steps: { kind: 'tool_call' | 'tool_result'; data: Record<string, unknown> }[]) {
  const thread = await store.createThread({ owner: 'user:alice' });
  const begun = await store.beginTurn({ threadId: thread.id, requestKey: 'k', input: 'how many parts?' });
  await store.updateTurn(begun.turn.id, { status: 'running' });
  if (steps.length > 0) await store.appendItems(begun.turn.id, steps as never);
  await store.close();
  return { threadId: thread.id, turnId: begun.turn.id };
}

const readCall = (callId: string) => ({ kind: 'tool_call' as const, data: { callId, name: 'lookup', arguments: '{"q":"parts"}', effect: 'read', step: 1 } });
const readResult = (callId: string) => ({ kind: 'tool_result' as const, data: { callId, name: 'lookup', result: { rows: [1, 2, 3] } } });

describe('restart', () => {
  it('fails a turn left running without a write in flight as interrupted, and retries it from its committed items', async () => {
    const { threadId, turnId } = await stranded((await open()), [readCall('c1'), readResult('c1')]);
    const made = makeKit({ completions: [{ text: 'Three parts.' }] }, {}, { store: (await open()) });
    kits.push(made);
    await made.engine.ready;
    expect(await made.store.getTurn(turnId)).toMatchObject({ status: 'failed', failureCode: 'interrupted' });
    const retried = await collect(made.engine.retry({ actor: alice, turnId, requestKey: key() }));
    expect(retried.answer).toBe('Three parts.');
    expect(made.reads).toEqual([]);
    const items = await made.store.listItems(threadId);
    expect(items.filter((item) => item.kind === 'user_text')).toHaveLength(1);
    expect(made.provider!.requests[0]!.messages.some((message) => message.role === 'tool')).toBe(true);
    expect(await made.store.getTurn(turnId)).toMatchObject({ status: 'completed', failureCode: null });
  });

  it('ends a turn that was stopping when its server stopped as cancelled, and keeps its queue held', async () => {
    await stoppingAcrossRestart(open);
  });

  it('re-runs a read that had not finished before retrying the model', async () => {
    const { turnId } = await stranded((await open()), [readCall('c1')]);
    const made = makeKit({ completions: [{ text: 'Done.' }] }, {}, { store: (await open()) });
    kits.push(made);
    const retried = await collect(made.engine.retry({ actor: alice, turnId, requestKey: key() }));
    expect(retried.events.map((event) => event.type)).toEqual(['tool_result', 'text_chunk', 'done']);
    expect(made.reads).toEqual(['parts']);
  });

  it('fails a turn whose write had started as effect_outcome_unknown, and refuses to retry it', async () => {
    const write = { kind: 'tool_call' as const, data: { callId: 'w', name: 'touch', arguments: '{"id":1}', effect: 'write', step: 1 } };
    const { turnId } = await stranded((await open()), [write]);
    const made = makeKit({ completions: [{ text: 'never' }] }, {}, { store: (await open()) });
    kits.push(made);
    await made.engine.ready;
    expect(await made.store.getTurn(turnId)).toMatchObject({ status: 'failed', failureCode: 'effect_outcome_unknown' });
    const retried = await collect(made.engine.retry({ actor: alice, turnId, requestKey: key() }));
    expect(retried.events).toEqual([expect.objectContaining({ type: 'error', code: 'not_retryable' })]);
    expect(made.writes).toEqual([]);
  });

  it('treats a write held for confirmation as started only once approved', () => {
    const base = { threadId: 't', turnId: 'u', createdAt: 0 };
    const call = { ...base, id: '1', ordinal: 1, kind: 'tool_call' as const, data: { callId: 'w', name: 'create_part', arguments: '{}', effect: 'write', step: 1 } };
    const request = { ...base, id: '2', ordinal: 2, kind: 'confirmation_request' as const, data: { confirmationId: 'c', callId: 'w', name: 'create_part', arguments: {}, expiresAt: '' } };
    const approved = { ...base, id: '3', ordinal: 3, kind: 'confirmation_resolution' as const, data: { confirmationId: 'c', callId: 'w', outcome: 'approved' } };
    expect(classifyInterrupted([call, request])).toBe('interrupted');
    expect(classifyInterrupted([call, request, approved])).toBe('effect_outcome_unknown');
  });

  it('keeps a waiting turn waiting across a restart', async () => {
    const first = makeKit({ completions: [{ toolCalls: [{ id: 'w', name: 'create_part', arguments: { name: 'A' } }] }] }, {}, { store: (await open()) });
    const { events } = await first.engine.ask({ actor: alice, requestKey: key(), text: 'create A' });
    await first.engine.close();
    const made = makeKit({ completions: [{ text: 'Created.' }] }, {}, { store: (await open()) });
    kits.push(made);
    await made.engine.ready;
    expect(await made.store.getTurn(events[0]!.turn_id)).toMatchObject({ status: 'waiting' });
    const confirm = events.at(-1)!;
    const resumed = await collect(made.engine.confirm({ actor: alice, confirmationId: confirm.type === 'confirm_mutation' ? confirm.id : '', confirmed: true }));
    expect(resumed.answer).toBe('Created.');
    expect(made.writes).toHaveLength(1);
  });

  it('survives SIGKILL mid-write: every committed item is there, the turn is effect_outcome_unknown, the write ran once', async () => {
    const dbPath = join(dir.path, 'crash.db');
    const marker = join(dir.path, 'marker.txt');
    const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./crash-child.fixture.ts', import.meta.url)), dbPath, marker], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    try {
      for (let i = 0; i < 2000 && !existsSync(marker); i++) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(existsSync(marker), stderr).toBe(true);
      child.kill('SIGKILL');
      await exited;
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
    const store = await openSqliteStore({ path: dbPath });
    stores.push(store);
    // The killed engine's lease lapses half a second after its last heartbeat; only then is its turn anyone's to end.
    for (let i = 0; i < 300 && (await store.orphanedTurns()).length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    const made = makeKit({ completions: [{ text: 'never' }] }, {}, { store });
    kits.push(made);
    await made.engine.ready;
    const [thread] = await store.listThreads('user:alice');
    const [turn] = await store.listTurns(thread!.id);
    expect(turn).toMatchObject({ status: 'failed', failureCode: 'effect_outcome_unknown' });
    const kinds = (await store.listItems(thread!.id)).map((item) => item.kind);
    expect(kinds).toEqual(['user_text', 'tool_call', 'tool_result', 'assistant_text', 'tool_call', 'error']);
    const retried = await collect(made.engine.retry({ actor: alice, turnId: turn!.id, requestKey: key() }));
    expect(retried.events[0]).toMatchObject({ type: 'error', code: 'not_retryable' });
    expect(readFileSync(marker, 'utf8')).toBe('executed\n');
  });
});

/**
 * A turn left running with a person's stop journaled (the server stopped while it was stopping)
 * and a message queued behind it: the next engine ends it cancelled, not interrupted, and leaves
 * the queue held. `open` opens the same journal each time.
 */
async function stoppingAcrossRestart(open: () => Promise<Store>): Promise<void> {
  const store = await open();
  const thread = await store.createThread({ owner: 'user:alice' });
  const begun = await store.beginTurn({ threadId: thread.id, requestKey: 'k', input: 'how many parts?' });
  await store.updateTurn(begun.turn.id, { status: 'running' });
  await store.appendItems(begun.turn.id, [readCall('c1'), runMarks.stop({ mode: 'graceful', requestedAt: 1 })]);
  await store.enqueueMessage({ threadId: thread.id, owner: 'user:alice', actor: { kind: 'user', id: 'alice' }, requestKey: 'q', text: 'next one', limit: 10 });
  await store.close();
  const made = makeKit({ completions: [{ text: 'never' }] }, {}, { store: await open() });
  kits.push(made);
  await made.engine.ready;
  expect(await made.store.getTurn(begun.turn.id)).toMatchObject({ status: 'cancelled', failureCode: 'cancelled' });
  await new Promise((resolve) => setTimeout(resolve, 50));
  const state = await made.engine.threads.state({ actor: alice, threadId: thread.id });
  expect(state).toMatchObject({ stopping: null, queueHeld: true });
  expect(state.queue.map((entry) => entry.text)).toEqual(['next one']);
  expect(await made.store.listTurns(thread.id)).toHaveLength(1);
  expect(made.provider!.requests).toHaveLength(0);
}

describeWithPostgres('restart on the PostgreSQL journal', (server) => {
  it('ends a turn that was stopping when its server stopped as cancelled, and keeps its queue held', async () => {
    const schema = await server.freshSchema();
    await stoppingAcrossRestart(async () => {
      const store = await openPostgresStore({ url: server.url, schema, max: 2 });
      stores.push(store);
      return store;
    });
  });
});
