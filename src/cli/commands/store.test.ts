import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeEach, describe, expect, it } from 'vitest';
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
    });
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
  }, 30_000);

  it('reports a journal not made yet as empty without creating it', async () => {
    expect(await inspect<Census>()).toMatchObject({ exists: false, threads: 0, liveLeases: 0 });
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
