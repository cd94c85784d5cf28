import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describeWithPostgres } from '../../data/testing/postgres.js';
import { openPostgresStore } from '../../postgres/index.js';
import { openSqliteStore } from '../../store/index.js';
import { makeKit } from '../../../test/support/engine-kit.js';
import { plumb } from '../../../test/support/cli.js';
import { tempDirEach } from '../../../test/support/temp.js';

const dir = tempDirEach('plumb-cli-store-');
let journal: string;
let configFile: string;

beforeEach(() => {
  journal = join(dir.path, 'chat.sqlite');
  configFile = join(dir.path, 'plumb.config.json');
  writeFileSync(configFile, JSON.stringify({ store: journal, database: join(dir.path, 'shop.sqlite') }));
});

interface Census {
  store: string;
  exists: boolean;
  threads: number;
  turns: Record<string, number>;
  confirmations: { pending: number; claimed: number; resolved: Record<string, number> };
  liveLeases: number;
  stuckTurns: number;
  orphanedConfirmations: number;
  migrations: { applied: string[]; pending: string[] };
  sizes: Record<string, number>;
}

interface ThreadReport {
  thread: { id: string; owner: string };
  turns: { id: string; status: string; errorCode: string | null }[];
  confirmations: { id: string; tool: string; status: string; outcome: string | null; resolvedAt: string | null }[];
}

async function inspect<T>(...args: string[]): Promise<T> {
  const run = await plumb('store', 'inspect', '--config', configFile, '--json', ...args);
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as T;
}

/** crash-turn.fixture.ts on the journal, SIGKILLed inside its approved write (after the claim, before the result). */
async function killInsideWrite(): Promise<void> {
  const marker = join(dir.path, 'marker');
  const fixture = fileURLToPath(new URL('../../engine/recovery/crash-turn.fixture.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', fixture, journal, marker, 'inside-write'], { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  for (let i = 0; i < 3000 && !(existsSync(marker) && readFileSync(marker, 'utf8').includes('executed')); i++) await new Promise((resolve) => setTimeout(resolve, 5));
  child.kill('SIGKILL');
  await exited;
  expect(readFileSync(marker, 'utf8')).toContain('executed');
}

describe('plumb store inspect', () => {
  it('shows a write killed inside its run as claimed, and after recovery as resolved outcome_unknown with its turn failed effect_outcome_unknown', async () => {
    await killInsideWrite();
    const before = await inspect<Census>();
    expect(before).toMatchObject({ store: journal, exists: true, threads: 1, confirmations: { pending: 0, claimed: 1, resolved: {} } });
    expect(before.turns).toMatchObject({ running: 1, failed: 0 });

    // Recovery: an engine starting on the journal ends the orphaned turn once the dead one's lease lapsed.
    const store = await openSqliteStore({ path: journal });
    let threadId: string;
    try {
      for (let i = 0; i < 300 && (await store.orphanedTurns()).length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
      // Its lease lapsed: stuck until an engine starts.
      expect(await inspect<Census>()).toMatchObject({ stuckTurns: 1, orphanedConfirmations: 0 });
      expect((await plumb('store', 'inspect', '--config', configFile)).stdout).toMatch(/stuck turns: +1 \(accepted or running, their lease lapsed/);
      const kit = makeKit(undefined, {}, { store });
      await kit.engine.ready;
      await kit.engine.close();
      threadId = (await store.listThreads('user:alice'))[0]!.id;
    } finally {
      await store.close();
    }

    const after = await inspect<Census>();
    expect(after).toEqual({
      store: journal,
      exists: true,
      threads: 1,
      turns: { accepted: 0, running: 0, waiting: 0, completed: 0, failed: 1, cancelled: 0 },
      confirmations: { pending: 0, claimed: 0, resolved: { outcome_unknown: 1 } },
      liveLeases: 0,
      stuckTurns: 0,
      orphanedConfirmations: 0,
      migrations: { applied: ['0001_journal', '0002_leases', '0003_queue', '0004_thread_pages'], pending: [] },
      sizes: { file: expect.any(Number), wal: expect.any(Number) },
    });
    expect(after.sizes.file).toBeGreaterThan(0);
    const shown = await inspect<ThreadReport>('--thread', threadId);
    expect(shown.thread).toMatchObject({ id: threadId, owner: 'user:alice' });
    expect(shown.turns).toEqual([{ id: expect.any(String), status: 'failed', errorCode: 'effect_outcome_unknown' }]);
    expect(shown.confirmations).toEqual([{ id: expect.any(String), tool: 'add_part', status: 'resolved', outcome: 'outcome_unknown', resolvedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) }]);
    const text = await plumb('store', 'inspect', '--config', configFile, '--thread', threadId);
    expect(text.stdout).toMatch(/failed +effect_outcome_unknown/);
    expect(text.stdout).toMatch(/add_part +resolved +outcome_unknown +\d{4}-/);
  }, 30_000);

  it("shows a demo conversation after plumb ask: the counts, and the thread's turn", async () => {
    const asked = await plumb('ask', '--config', configFile, '--demo', '--json', 'how many parts are there');
    expect(asked.code, asked.stderr).toBe(0);
    const threadId = (JSON.parse(asked.stdout.split('\n')[0]!) as { thread_id: string }).thread_id;
    const census = await inspect<Census>('--demo');
    expect(census).toMatchObject({ threads: 1, turns: { completed: 1 }, confirmations: { pending: 0, claimed: 0, resolved: {} } });
    const shown = await inspect<ThreadReport>('--demo', '--thread', threadId);
    expect(shown.turns).toEqual([{ id: expect.any(String), status: 'completed', errorCode: null }]);
    expect(shown.confirmations).toEqual([]);
    const text = await plumb('store', 'inspect', '--config', configFile, '--demo');
    expect(text.stdout).toContain(`Journal ${journal}:`);
    expect(text.stdout).toMatch(/threads: +1\n/);
    expect(text.stdout).toMatch(/completed 1/);
    expect(text.stdout).toMatch(/stuck turns: +0\n/);
    expect(text.stdout).toMatch(/orphaned confirmations: +0\n/);
    expect(text.stdout).toMatch(/migrations: +4 applied \(0001_journal, 0002_leases, 0003_queue, 0004_thread_pages\), none pending\n/);
    expect(text.stdout).toMatch(/size: +[\d.]+ (KiB|MiB) \(file [\d.]+ KiB, wal [\d.]+ (B|KiB|MiB)\)\n/);
  }, 30_000);

  it('reports a journal not made yet as empty without creating it', async () => {
    expect(await inspect<Census>()).toMatchObject({ exists: false, threads: 0, liveLeases: 0, stuckTurns: 0, orphanedConfirmations: 0, migrations: { applied: [], pending: [] }, sizes: {} });
    expect(existsSync(journal)).toBe(false);
  });

  it('exits 1 with store_not_found for a thread the journal does not hold, and with the store\'s code for a file that is no journal', async () => {
    const missing = await plumb('store', 'inspect', '--config', configFile, '--thread', 'no-such-thread');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^plumb: store_not_found: The journal has no thread 'no-such-thread'/);
    writeFileSync(journal, 'not a database '.repeat(100));
    const broken = await plumb('store', 'inspect', '--config', configFile);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toMatch(/^plumb: migration_failed: .*file is not a database/);
  });
});

let written = 0;

/** Threads of one turn each, `input` long, in the journal (made when missing). */
async function writeThreads(count: number, input = 'hello'): Promise<string[]> {
  const store = await openSqliteStore({ path: journal });
  try {
    const ids: string[] = [];
    for (let i = 0; i < count; i++) ids.push((await store.beginTurn({ owner: 'user:alice', newThread: true, requestKey: `k${written++}`, input })).thread.id);
    return ids;
  } finally {
    await store.close();
  }
}

describe('plumb store backup', () => {
  it('copies the journal into a new file, which inspects like the journal; an existing file only with --force', async () => {
    await writeThreads(3);
    const copy = join(dir.path, 'copy.sqlite');
    const run = await plumb('store', 'backup', copy, '--config', configFile, '--json');
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as { kind: string; file: string; bytes: number; pages: number; ms: number };
    expect(report).toMatchObject({ kind: 'sqlite', file: copy, pages: expect.any(Number) });
    expect(report.bytes).toBe(statSync(copy).size);
    expect(readdirSync(dir.path).filter((name) => name.includes('.partial-'))).toEqual([]);
    const copyConfig = join(dir.path, 'copy.config.json');
    writeFileSync(copyConfig, JSON.stringify({ store: copy, database: join(dir.path, 'shop.sqlite') }));
    const copied = await plumb('store', 'inspect', '--config', copyConfig, '--json');
    expect(JSON.parse(copied.stdout)).toMatchObject({ exists: true, threads: 3, turns: { accepted: 3 } });

    const again = await plumb('store', 'backup', copy, '--config', configFile);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^plumb: store_backup_exists: '.*copy\.sqlite' exists already\. Name another file, or pass --force to replace it\./);
    await writeThreads(1);
    const forced = await plumb('store', 'backup', copy, '--config', configFile, '--force');
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stdout).toMatch(/^Backed up .*chat\.sqlite to .*copy\.sqlite: [\d.]+ KiB \(\d+ pages\) in \d+ ms\.\n$/);
    expect(JSON.parse((await plumb('store', 'inspect', '--config', copyConfig, '--json')).stdout)).toMatchObject({ threads: 4 });
  });

  it('refuses a missing folder, the journal itself, and a journal not made yet or in memory, each with its code', async () => {
    const missingFolder = await plumb('store', 'backup', join(dir.path, 'no', 'such', 'copy.sqlite'), '--config', configFile);
    expect(missingFolder.code).toBe(1);
    expect(missingFolder.stderr).toMatch(/^plumb: store_no_journal: The journal '.*chat\.sqlite' is not made yet/);
    await writeThreads(1);
    const folder = await plumb('store', 'backup', join(dir.path, 'no', 'such', 'copy.sqlite'), '--config', configFile);
    expect(folder.code).toBe(1);
    expect(folder.stderr).toMatch(/^plumb: store_backup_directory_missing: The backup's folder '.*no\/such' does not exist\. Create it first/);
    const itself = await plumb('store', 'backup', journal, '--config', configFile, '--force');
    expect(itself.code).toBe(1);
    expect(itself.stderr).toMatch(/^plumb: store_backup_exists: '.*chat\.sqlite' is the journal itself/);
    writeFileSync(configFile, JSON.stringify({ store: ':memory:', database: join(dir.path, 'shop.sqlite') }));
    const memory = await plumb('store', 'backup', join(dir.path, 'copy.sqlite'), '--config', configFile);
    expect(memory.code).toBe(1);
    expect(memory.stderr).toMatch(/^plumb: store_no_journal: The journal is in memory/);
    expect((await plumb('store', 'vacuum', '--config', configFile)).stderr).toMatch(/^plumb: store_no_journal:/);
  });
});

describe('plumb store vacuum', () => {
  it('gives back the space of deleted threads and empties the WAL', async () => {
    const ids = await writeThreads(300, 'x'.repeat(2000));
    const store = await openSqliteStore({ path: journal });
    for (const id of ids.slice(10)) await store.deleteThread(id);
    await store.close();
    const run = await plumb('store', 'vacuum', '--config', configFile, '--json');
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as { store: string; before: { file: number; wal: number }; after: { file: number; wal: number }; ms: number };
    expect(report.store).toBe(journal);
    expect(report.after.wal).toBe(0);
    expect(report.after.file).toBeLessThan(report.before.file / 4);
    expect(JSON.parse((await plumb('store', 'inspect', '--config', configFile, '--json')).stdout)).toMatchObject({ threads: 10 });
    const text = await plumb('store', 'vacuum', '--config', configFile);
    expect(text.stdout).toMatch(/^Vacuumed .*chat\.sqlite in \d+ ms: [\d.]+ KiB \(file [\d.]+ KiB, wal 0 B\) → [\d.]+ KiB \(file [\d.]+ KiB, wal 0 B\)\.\n$/);
  });
});

describeWithPostgres('plumb store on a PostgreSQL journal', (server) => {
  const databases: string[] = [];
  afterEach(async () => {
    for (const name of databases.splice(0)) await server.admin(`drop database if exists "${name}" with (force)`);
  });

  /** A database of the test's own (the CLI's journal is in the URL's database, its default schema). */
  async function freshDatabase(): Promise<string> {
    const name = `plumb_upkeep_${process.pid}_${databases.length}_${Date.now().toString(36)}`;
    await server.admin(`create database "${name}"`);
    databases.push(name);
    const url = new URL(server.url);
    url.pathname = `/${name}`;
    return url.toString();
  }

  it('inspects its tables, vacuums them, and prints the pg_dump line (no password; exit 3) that a pg_restore brings back', async () => {
    const url = await freshDatabase();
    writeFileSync(configFile, JSON.stringify({ store: url, database: join(dir.path, 'shop.sqlite') }));
    const store = await openPostgresStore({ url, max: 1 });
    try {
      for (let i = 0; i < 3; i++) await store.beginTurn({ owner: 'user:alice', newThread: true, requestKey: `k${i}`, input: 'hello' });
    } finally {
      await store.close();
    }
    const census = await inspect<Census>();
    expect(census).toMatchObject({ exists: true, threads: 3, stuckTurns: 3, migrations: { applied: ['0001_journal', '0002_leases', '0003_queue', '0004_thread_pages'], pending: [] } });
    expect(Object.keys(census.sizes)).toEqual(['plumb_confirmations', 'plumb_items', 'plumb_leases', 'plumb_queue', 'plumb_threads', 'plumb_turns']);
    expect(census.sizes.plumb_items).toBeGreaterThan(0);
    const vacuumed = await plumb('store', 'vacuum', '--config', configFile, '--json');
    expect(vacuumed.code, vacuumed.stderr).toBe(0);
    expect(Object.keys((JSON.parse(vacuumed.stdout) as { after: Record<string, number> }).after)).toHaveLength(6);

    const file = join(dir.path, 'journal.dump');
    const backup = await plumb('store', 'backup', file, '--config', configFile);
    expect(backup.code).toBe(3);
    const password = new URL(url).password;
    expect(backup.stdout).not.toContain(`:${password}@`);
    expect(backup.stderr).not.toContain(`:${password}@`);
    expect(backup.stdout).toMatch(/^pg_dump --format=custom --table='plumb_\*' --file='.*journal\.dump' 'postgres:\/\/postgres@127\.0\.0\.1:5432\/plumb_upkeep_\w+'\n$/);
    const restore = /restore with: (pg_restore .*)$/.exec(backup.stderr.trim())?.[1];
    expect(restore).toMatch(/^pg_restore --dbname='postgres:\/\/postgres@[^']+' '.*journal\.dump'$/);

    // The printed lines, run as printed (the password from the environment): the journal comes back whole.
    const env = { ...process.env, PGPASSWORD: password };
    await run('sh', ['-c', backup.stdout.trim()], env);
    const name = new URL(url).pathname.slice(1);
    await server.admin(`drop database "${name}" with (force)`);
    await server.admin(`create database "${name}"`);
    await run('sh', ['-c', restore!], env);
    expect(await inspect<Census>()).toMatchObject({ threads: 3, turns: { accepted: 3 }, migrations: { pending: [] } });
  }, 30_000);
});

function run(command: string, args: readonly string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} exited ${code}: ${stderr}`))));
  });
}
