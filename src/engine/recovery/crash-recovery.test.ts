import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { describeWithPostgres } from '../../data/testing/postgres.js';
import { openPostgresStore } from '../../postgres/index.js';
import { openSqliteStore } from '../../store/index.js';
import type { Store } from '../../store/index.js';
import { collect } from '../index.js';
import { cleanupWithStore, createLocalThreadEvents } from '../../server/index.js';
import { Client, startServer } from '../../../test/server/harness.js';
import { readEvents } from '../../../test/server/thread-kit.js';
import { alice, key, makeKit } from '../../../test/support/engine-kit.js';
import type { Kit } from '../../../test/support/engine-kit.js';
import { tempDirEach } from '../../../test/support/temp.js';

const dir = tempDirEach('plumb-crash-');
const kits: Kit[] = [];
/** Children a test stopped (SIGSTOP) and may not have resumed: killed after it. */
const stopped: ChildProcess[] = [];
const stores: Store[] = [];
afterEach(async () => {
  for (const child of stopped.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const made of kits.splice(0)) await made.engine.close();
  for (const store of stores.splice(0)) await store.close();
});

/** A journal two processes share: the child's arguments naming it (crash-turn.fixture.ts), and this process's own handle on it. */
interface Journal {
  readonly args: readonly string[];
  open(): Promise<Store>;
}

const sqliteJournal = (mode: string): Journal => {
  const path = join(dir.path, `${mode}.db`);
  return { args: [path], open: () => openSqliteStore({ path }) };
};

/**
 * Runs crash-turn.fixture.ts in `mode` and SIGKILLs it (or SIGSTOPs it, to `resume` later) once `ready(events, marker)` says so; then
 * opens the journal here, waits for the dead engine's lease to lapse, and starts an engine on it.
 */
async function crash(
  mode: string,
  ready: (events: readonly Record<string, unknown>[], marker: string) => boolean,
  completions: unknown[] = [{ text: 'never' }],
  signal: NodeJS.Signals = 'SIGKILL',
  journal: Journal = sqliteJournal(mode),
) {
  const marker = join(dir.path, `${mode}.marker`);
  const [location, ...rest] = journal.args;
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./crash-turn.fixture.ts', import.meta.url)), location!, marker, mode, ...rest], { stdio: ['ignore', 'pipe', 'pipe'] });
  const events: Record<string, unknown>[] = [];
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    const lines = stdout.split('\n');
    stdout = lines.pop() ?? '';
    for (const line of lines) if (line.trim() !== '') events.push(JSON.parse(line) as Record<string, unknown>);
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    const markerText = (): string => (existsSync(marker) ? readFileSync(marker, 'utf8') : '');
    for (let i = 0; i < 3000 && !ready(events, markerText()); i++) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(ready(events, markerText()), stderr).toBe(true);
    child.kill(signal);
    if (signal === 'SIGKILL') await exited;
  } finally {
    if (signal === 'SIGSTOP') stopped.push(child);
    else if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
  const store = await journal.open();
  stores.push(store);
  for (let i = 0; i < 300 && (await store.orphanedTurns()).length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
  const made = makeKit({ completions: completions as never }, {}, { store });
  kits.push(made);
  await made.engine.ready;
  const [thread] = await store.listThreads('user:alice');
  const [turn] = await store.listTurns(thread!.id);
  /** A stopped child, resumed: its exit, and what it recorded meanwhile. */
  const resume = async (): Promise<string> => {
    child.kill('SIGCONT');
    await exited;
    return readFileSync(marker, 'utf8');
  };
  return { events, store, made, thread: thread!, turn: turn!, marker: existsSync(marker) ? readFileSync(marker, 'utf8') : '', resume };
}

describe('nothing a client saw is lost', () => {
  it('journals streamed text before a client sees it: SIGKILL after the first chunk, and the text is there', async () => {
    const { events, store, made, thread, turn } = await crash('stream', (seen) => seen.some((event) => event.type === 'text_chunk'));
    const shown = events.filter((event) => event.type === 'text_chunk').map((event) => event.content).join('');
    expect(shown).toBe('Alpha bravo ');
    expect(turn).toMatchObject({ status: 'failed', failureCode: 'interrupted' });
    const drafts = (await store.listItems(thread.id)).filter((item) => item.kind === 'text_draft').map((item) => (item.data as { text: string }).text).join('');
    expect(drafts.startsWith(shown)).toBe(true);
    // What the journal tells a client coming back (a resent request key) holds the text it was shown.
    const replayed = await collect(made.engine.send({ actor: alice, requestKey: 'crash-1', text: 'tell me slowly' }));
    expect(replayed.events.filter((event) => event.type === 'text_chunk').map((event) => (event.type === 'text_chunk' ? event.content : '')).join('')).toContain(shown);
  }, 30_000);

  it('ends a turn killed between the approval and its journal record truthfully: the confirmation resolved, the write not run', async () => {
    const { store, made, thread, turn, marker } = await crash('approve-before-journal', (_seen, text) => text.includes('approved'), [{ when: { toolResultContains: 'did not run' }, text: 'The server stopped before adding it; nothing changed.' }]);
    expect(marker).not.toContain('executed');
    expect(turn).toMatchObject({ status: 'failed', failureCode: 'interrupted' });
    const items = await store.listItems(thread.id);
    const request = items.find((item) => item.kind === 'confirmation_request')!;
    const confirmation = await store.getConfirmation((request.data as { confirmationId: string }).confirmationId);
    expect(confirmation).toMatchObject({ status: 'resolved', resolution: { status: 'cancelled', reason: 'interrupted' } });
    expect(items.map((item) => item.kind)).toEqual(['user_text', 'tool_call', 'confirmation_request', 'confirmation_resolution', 'tool_result', 'error']);
    expect(items.find((item) => item.kind === 'tool_result')).toMatchObject({ data: { callId: 'w1', result: { status: 'cancelled', reason: 'interrupted' } } });
    // Retried, the model reads that the write did not run; nothing reports an unknown outcome.
    const retried = await collect(made.engine.retry({ actor: alice, turnId: turn.id, requestKey: key() }));
    expect(retried.answer).toBe('The server stopped before adding it; nothing changed.');
    expect(retried.events.some((event) => event.type === 'error')).toBe(false);
    expect(made.writes).toEqual([]);
  }, 30_000);

  it('ends a turn killed after the approval was journaled but before the claim as a write that did not run', async () => {
    const { store, thread, turn, marker } = await crash('approve-before-claim', (_seen, text) => text.includes('claiming'));
    expect(marker).not.toContain('executed');
    expect(turn).toMatchObject({ status: 'failed', failureCode: 'interrupted' });
    const items = await store.listItems(thread.id);
    expect(items.map((item) => item.kind)).toEqual(['user_text', 'tool_call', 'confirmation_request', 'confirmation_resolution', 'confirmation_resolution', 'tool_result', 'error']);
    const request = items.find((item) => item.kind === 'confirmation_request')!;
    expect(await store.getConfirmation((request.data as { confirmationId: string }).confirmationId)).toMatchObject({ status: 'resolved' });
  }, 30_000);

  it('resolves the confirmation of a write killed while it ran as outcome unknown, with the turn, shows it so over HTTP, and retention removes it', async () => {
    const { store, made, thread, turn, marker } = await crash('inside-write', (_seen, text) => text.includes('executed'));
    expect(marker).toContain('executed');
    expect(turn).toMatchObject({ status: 'failed', failureCode: 'effect_outcome_unknown' });
    const request = (await store.listItems(thread.id)).find((item) => item.kind === 'confirmation_request')!;
    const id = (request.data as { confirmationId: string }).confirmationId;
    const resolved = await store.getConfirmation(id);
    expect(resolved).toMatchObject({ status: 'resolved', resolution: { outcome: 'outcome_unknown' } });
    // What the person and a client see: the turn ended with the outcome unknown, nothing waiting, and the confirmation answerable no more.
    const events = createLocalThreadEvents();
    const running = await startServer(made.engine, {}, { following: { store, events } });
    try {
      const client = await new Client(running.url, { 'x-plumb-user': 'alice' }).withCsrf();
      const [view] = await readEvents(await client.fetch(`/chat/threads/${thread.id}/view/`), (seen) => seen.length > 0);
      expect(view).toMatchObject({ type: 'view', turn: { id: turn.id, status: 'failed', failure_code: 'effect_outcome_unknown' }, confirmation: null });
      const shown = (await (await client.fetch(`/chat/threads/${thread.id}`)).json()) as { items: { kind: string; data: Record<string, unknown> }[] };
      expect(shown.items.filter((item) => item.kind === 'confirmation_resolution').map((item) => item.data.outcome)).toEqual(['approved']);
      expect(shown.items.at(-1)).toMatchObject({ kind: 'error', data: { code: 'effect_outcome_unknown' } });
      const again = (await (await client.post('/chat/confirm/', { confirmation_id: id, confirmed: true })).json()) as { events: Record<string, unknown>[] };
      expect(again.events.at(-1)).toMatchObject({ type: 'error', code: 'confirmation_unavailable' });
    } finally {
      await running.close();
      await events.close();
    }
    // Retention removes it like any resolved confirmation; the thread, recent, stays.
    const report = await cleanupWithStore(store, 24, { now: Date.now() + 60_000 });
    expect(report.confirmationsDeleted).toBe(1);
    expect(report.threadsDeleted).toEqual([]);
    expect(await store.getConfirmation(id)).toBeUndefined();
  }, 30_000);

  it('fences out a process paused past its lease: once another recovered its turn, the resumed process writes nothing to it', () => fencedOut(), 30_000);
});

/** The paused process resumes after another recovered its turn: every write it tries fails lease_lost in its own transaction, and nothing of it lands. */
async function fencedOut(journal?: Journal): Promise<void> {
  const { store, thread, turn, resume } = await crash('stall', (_seen, text) => text.includes('executed'), [{ text: 'unused' }], 'SIGSTOP', journal);
  expect(turn).toMatchObject({ status: 'failed', failureCode: 'effect_outcome_unknown' });
  const recovered = (await store.listItems(thread.id)).map((item) => item.id);
  const marker = await resume();
  expect(marker).toContain('refused lease_lost');
  expect(marker).toContain('done');
  expect((await store.listItems(thread.id)).map((item) => item.id)).toEqual(recovered);
  expect(await store.getTurn(turn.id)).toMatchObject({ status: 'failed', failureCode: 'effect_outcome_unknown' });
}

describeWithPostgres('a process paused past its lease on a PostgreSQL journal', (server) => {
  it('is fenced out the same way: once another process recovered its turn, the resumed one writes nothing to it', async () => {
    const schema = await server.freshSchema();
    await fencedOut({ args: [server.url, schema], open: () => openPostgresStore({ url: server.url, schema, max: 4 }) });
  }, 60_000);
});
