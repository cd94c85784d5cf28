/**
 * `npm run bench -- journal-writes [--turns 300]`: what one turn costs the durable journals, counted
 * rather than timed. SQLite (its own file, WAL, group commit as it ships): commits and WAL frames per
 * turn, read from the WAL file with checkpoints held off by a reader. PostgreSQL (at
 * `PLUMB_BENCH_POSTGRES_URL` or `PLUMB_TEST_POSTGRES_URL`; skipped without a server): round trips per
 * turn, every statement sent to the server counted (BEGIN and COMMIT too). Three turns: a router-only
 * turn on the demo as `plumb serve --demo` wires it (Alice's data read, continuing her thread), and the
 * engine bench's K = 1 and K = 3 model turns (each the first of a new thread, so it is titled).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { createDemoApp, demoActors, demoChatHost } from '../src/demo/index.js';
import { openPostgresStore } from '../src/postgres/index.js';
import { createChatStack, parseConfig } from '../src/server/index.js';
import { openSqliteStore } from '../src/store/index.js';
import type { Store } from '../src/store/index.js';
import type { Benchmark } from './harness.js';
import { machineLine, option, printTable } from './harness.js';
import { plumbEngine } from './plumb-kit.js';
import { walWrites } from './sqlite-wal.js';

interface Subject {
  readonly run: (i: number) => Promise<void>;
  readonly close: () => Promise<void>;
}

/** The demo's router-only data read, as Alice, on a chat journal at `store` (a SQLite path or a PostgreSQL URL). */
async function routerSubject(dir: string, store: string, configure?: (config: ReturnType<typeof parseConfig>) => void): Promise<Subject> {
  const app = await createDemoApp({ path: join(dir, 'demo.sqlite') });
  const config = parseConfig({ store, rateLimit: { requests: null } });
  configure?.(config);
  const stack = await createChatStack({ app, config, host: demoChatHost(app), cwd: dir });
  return {
    run: async (i) => {
      for await (const event of stack.engine.send({ actor: demoActors.alice, text: 'which parts are made of steel?', requestKey: `r${i}` })) {
        if (event.type === 'error') throw new Error(`router turn: ${event.code} ${event.message}`);
      }
    },
    close: async () => {
      await stack.close();
      await app.close();
    },
  };
}

function modelSubject(store: Store, k: number): Subject {
  const engine = plumbEngine(store, k);
  return { run: (i) => engine.send(`s${i}`, `r${i}`), close: engine.close };
}

/** Commits and WAL frames per turn of `subject` on the SQLite file at `path`, over `turns` turns after 50. */
async function walCost(path: string, subject: Subject, turns: number): Promise<[number, number]> {
  for (let i = 0; i < 50; i++) await subject.run(i);
  const { commits, frames } = await walWrites(path, async () => {
    for (let i = 50; i < 50 + turns; i++) await subject.run(i);
  });
  await subject.close();
  return [commits / turns, frames / turns];
}

/** Every statement this process sends to a PostgreSQL server (pg's pool sends through `Client.query`). */
let statementsSent = 0;
const clientQuery = Reflect.get(pg.Client.prototype, 'query') as (this: pg.Client, ...args: unknown[]) => unknown;
pg.Client.prototype.query = function counted(this: pg.Client, ...args: unknown[]) {
  statementsSent++;
  return clientQuery.apply(this, args);
} as unknown as typeof pg.Client.prototype.query;

/** Round trips per turn of `subject`, over `turns` turns after 50. */
async function roundTrips(subject: Subject, turns: number): Promise<number> {
  for (let i = 0; i < 50; i++) await subject.run(i);
  const before = statementsSent;
  for (let i = 50; i < 50 + turns; i++) await subject.run(i);
  const sent = statementsSent - before;
  await subject.close();
  return sent / turns;
}

const postgresUrl = process.env.PLUMB_BENCH_POSTGRES_URL ?? process.env.PLUMB_TEST_POSTGRES_URL;

/** A schema of this process's own on the server, dropped afterwards. */
async function withSchema<T>(url: string, name: string, work: (schema: string) => Promise<T>): Promise<T> {
  const schema = `plumb_bench_writes_${name}_${process.pid}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`drop schema if exists "${schema}" cascade`);
    await admin.query(`create schema "${schema}"`);
    return await work(schema);
  } finally {
    await admin.query(`drop schema if exists "${schema}" cascade`);
    await admin.end();
  }
}

const benchmark: Benchmark = {
  name: 'journal-writes',
  async run(args) {
    const turns = Number(option(args, '--turns', '300'));
    console.log(`journal-writes · ${machineLine()} · ${turns} measured turns per row after 50 · load average ${loadavg().map((l) => l.toFixed(1)).join(', ')}`);
    const dir = mkdtempSync(join(tmpdir(), 'plumb-bench-writes-'));
    try {
      const rows: (string | number)[][] = [];
      const routerPath = join(dir, 'router.sqlite');
      const sqliteRows: [string, number, number][] = [['router-only (demo data read)', ...(await walCost(routerPath, await routerSubject(dir, routerPath), turns))]];
      for (const k of [1, 3]) {
        const path = join(dir, `k${k}.sqlite`);
        sqliteRows.push([`K = ${k}`, ...(await walCost(path, modelSubject(await openSqliteStore({ path }), k), turns))]);
      }
      const trips: number[] = [];
      if (postgresUrl === undefined) console.log('PostgreSQL rows skipped: set PLUMB_BENCH_POSTGRES_URL (or PLUMB_TEST_POSTGRES_URL) to a server to count its round trips.');
      else {
        const url = postgresUrl;
        trips.push(await withSchema(url, 'router', async (schema) => roundTrips(await routerSubject(dir, `${url}${url.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`), turns)));
        for (const k of [1, 3]) {
          trips.push(await withSchema(url, `k${k}`, async (schema) => {
            const store = await openPostgresStore({ url, schema });
            try {
              return await roundTrips(modelSubject(store, k), turns);
            } finally {
              await store.close();
            }
          }));
        }
      }
      for (const [index, [turn, commits, frames]] of sqliteRows.entries()) rows.push([turn, commits, frames, trips[index] ?? 'skipped']);
      printTable('Journal writes per turn (SQLite: its own file, WAL, group commit; PostgreSQL: every statement sent)', ['turn', 'SQLite commits', 'SQLite WAL frames', 'PostgreSQL round trips'], rows);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};

export default benchmark;
