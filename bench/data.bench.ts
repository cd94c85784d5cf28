/**
 * `npm run bench -- data [--database sqlite,postgres] [--rebuild]`: the data layer on the scaled
 * demo shop (100,000 parts, 1,000,000 order lines) loaded with `app.load`, on SQLite (a temp file)
 * and on PostgreSQL (a schema of its own on PLUMB_BENCH_POSTGRES_URL, default the local server),
 * each reused between runs. The same queries run on both in one run, alternating database by
 * database round after round, so that a shift of the shared machine hits both alike.
 */
import { existsSync, rmSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { userActor } from '../src/core/index.js';
import { defineApp, sqlite } from '../src/data/index.js';
import type { App, Database } from '../src/data/index.js';
import { demoManagers, scaledSeed } from '../src/demo/index.js';
import { postgres } from '../src/postgres/index.js';
import type { Benchmark } from './harness.js';
import { heapUsedMb, machineLine, measure, printTable, summarize } from './harness.js';

/** The scaled demo: scale 100 → 100,000 parts, 100,000 orders and 1,000,000 order lines. */
const scale = { unit: 100, parts: 100_000, lines: 1_000_000 };
const sqlitePath = join(tmpdir(), `plumb-bench-demo-scale-${scale.unit}-v1.sqlite`);
const postgresUrl = process.env.PLUMB_BENCH_POSTGRES_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/postgres';
const postgresSchema = `plumb_bench_scale_${scale.unit}_v1`;

type Kind = 'sqlite' | 'postgres';
const kinds: readonly Kind[] = ['sqlite', 'postgres'];
const admin = userActor('bench', ['admin']);
const cpuSeconds = (usage: NodeJS.CpuUsage): number => (usage.user + usage.system) / 1e6;

function open(kind: Kind): Database {
  return kind === 'sqlite' ? sqlite({ path: sqlitePath }) : postgres({ url: postgresUrl, schema: postgresSchema });
}

/** The statements one run of a query sends, as PostgreSQL gets them. */
interface Sent {
  readonly text: string;
  readonly values: readonly unknown[];
}

/** Drops what a previous build left (a crashed build leaves it partial). */
async function reset(kind: Kind): Promise<void> {
  if (kind === 'sqlite') {
    for (const file of [sqlitePath, `${sqlitePath}-wal`, `${sqlitePath}-shm`]) rmSync(file, { force: true });
    return;
  }
  const pool = new pg.Pool({ connectionString: postgresUrl, max: 1 });
  try {
    await pool.query(`drop schema if exists "${postgresSchema}" cascade`);
    await pool.query(`create schema "${postgresSchema}"`);
  } finally {
    await pool.end();
  }
}

/** Whether the dataset exists and finished loading. */
async function complete(kind: Kind): Promise<boolean> {
  if (kind === 'sqlite' && !existsSync(sqlitePath)) return false;
  const app = defineApp({ managers: [...demoManagers], database: open(kind), tables: 'attach' });
  try {
    return (await app.count(admin, 'OrderLine')) === scale.lines;
  } catch {
    return false;
  } finally {
    await app.close();
  }
}

async function build(kind: Kind): Promise<{ seconds: number; cpuSeconds: number; linesPerSecond: number }> {
  await reset(kind);
  const cpu = process.cpuUsage();
  const started = performance.now();
  const app = defineApp({ managers: [...demoManagers], database: open(kind) });
  try {
    for (const batch of scaledSeed(scale.unit)) await app.load(batch.manager, batch.rows);
  } finally {
    await app.close();
  }
  const seconds = (performance.now() - started) / 1000;
  return { seconds, cpuSeconds: cpuSeconds(process.cpuUsage(cpu)), linesPerSecond: scale.lines / seconds };
}

async function statementsPer(app: App, document: string, variables?: Record<string, unknown>): Promise<number> {
  const before = app.stats.statements;
  const result = await app.graphql({ actor: admin, document, variables });
  if (result.errors !== undefined) throw new Error(JSON.stringify(result.errors));
  return app.stats.statements - before;
}

interface Query {
  readonly name: string;
  readonly runs: number;
  readonly document: string;
  readonly variables?: (i: number) => Record<string, unknown>;
}

const nested = (pageSize: number): string => `{ projectList(pageSize: ${pageSize}) { items { name parts { name material { name } } } } }`;
const queries: readonly Query[] = [
  { name: 'parts whose material name contains "alu", first page (50) + totalCount', runs: 100, document: '{ partList(filter: {material__name__icontains: "alu"}, pageSize: 50) { items { id name unitPrice } pageInfo { totalCount hasNextPage } } }' },
  { name: 'part by id', runs: 2000, document: 'query($id: ID!) { part(id: $id) { id name sku unitPrice stock } }', variables: (i) => ({ id: ((i * 7919) % scale.parts) + 1 }) },
  { name: 'projects → parts → material, 5 projects', runs: 100, document: nested(5) },
  { name: 'projects → parts → material, 50 projects', runs: 100, document: nested(50) },
  { name: 'order lines by customer city (2 hops) + totalCount', runs: 30, document: '{ orderLineList(pageSize: 50, filter: {order__customer__city: "São Paulo", quantity__gte: 5}) { items { quantity unitPrice part { name } } pageInfo { totalCount } } }' },
];

/** Rounds per query: each round runs a slice of the query's runs on every database in turn. */
const rounds = 5;

const benchmark: Benchmark = {
  name: 'data',
  async run(args) {
    const at = args.indexOf('--database');
    const chosen = (at < 0 ? kinds.join(',') : (args[at + 1] ?? '')).split(',') as Kind[];
    for (const kind of chosen) if (!kinds.includes(kind)) throw new Error(`--database takes ${kinds.join(', ')} (comma-separated), got '${kind}'`);
    console.log(`${machineLine()} · load average ${os.loadavg().map((value) => value.toFixed(1)).join(' ')}`);

    const builds: (string | number)[][] = [];
    for (const kind of chosen) {
      if (!args.includes('--rebuild') && (await complete(kind))) continue;
      console.log(`building the scaled shop on ${kind} …`);
      const built = await build(kind);
      builds.push([kind, `${scale.parts} parts, ${scale.lines} order lines, …`, built.seconds, built.cpuSeconds, built.linesPerSecond]);
    }
    if (builds.length > 0) printTable('Seeding the scaled demo (scale 100) with app.load', ['database', 'rows', 'wall s', 'CPU s', 'order lines / wall s'], builds);

    const apps = new Map<Kind, App>();
    let sent: Sent[] = [];
    for (const kind of chosen) {
      const app = defineApp({ managers: [...demoManagers], database: open(kind), tables: 'attach', ...(kind === 'postgres' ? { onQuery: (text: string, values: readonly unknown[]) => void sent.push({ text, values }) } : {}) });
      await app.ready();
      apps.set(kind, app);
    }
    // The floor under PostgreSQL's column: the same statements sent straight through a pg pool.
    const raw = new pg.Pool({ connectionString: postgresUrl, max: 2, options: `-c search_path=${postgresSchema}` });
    try {
      const rows: (string | number)[][] = [];
      for (const query of queries) {
        const samples = new Map<Kind, number[]>(chosen.map((kind) => [kind, []]));
        const statements = new Map<Kind, number>();
        for (const kind of chosen) statements.set(kind, await statementsPer(apps.get(kind)!, query.document, query.variables?.(0)));
        for (let round = 0; round < rounds; round++) {
          for (const kind of chosen) {
            const app = apps.get(kind)!;
            const offset = round * query.runs;
            const measured = await measure(Math.ceil(query.runs / rounds), async (i) => {
              const result = await app.graphql({ actor: admin, document: query.document, variables: query.variables?.(offset + i) });
              if (result.errors !== undefined) throw new Error(JSON.stringify(result.errors));
            }, round === 0 ? 10 : 0);
            samples.get(kind)!.push(...measured);
          }
        }
        const medians = chosen.map((kind) => summarize(samples.get(kind)!).median);
        const ratio = chosen.length === 2 ? [medians[1]! / medians[0]!] : [];
        let floor: number[] = [];
        if (chosen.includes('postgres')) {
          sent = [];
          await apps.get('postgres')!.graphql({ actor: admin, document: query.document, variables: query.variables?.(0) });
          const statementsOfRun = sent;
          floor = [summarize(await measure(Math.min(query.runs, 200), async () => {
            for (const statement of statementsOfRun) await raw.query(statement.text, [...statement.values]);
          }, 10)).median];
        }
        rows.push([query.name, query.runs, ...medians, ...ratio, ...floor, chosen.map((kind) => statements.get(kind)).join(' / ')]);
      }
      const header = ['query', 'runs', ...chosen.map((kind) => `${kind} median ms`), ...(chosen.length === 2 ? [`${chosen[1]} / ${chosen[0]}`] : []), ...(chosen.includes('postgres') ? ['its statements alone over pg, ms'] : []), `statements (${chosen.join(' / ')})`];
      printTable('Data layer queries on the scaled shop, side by side', header, rows);

      const heap: (string | number)[][] = [];
      for (const kind of chosen) {
        const app = apps.get(kind)!;
        const run = async (document: string, variables?: Record<string, unknown>): Promise<void> => {
          const result = await app.graphql({ actor: admin, document, variables });
          if (result.errors !== undefined) throw new Error(JSON.stringify(result.errors));
        };
        const mixed = [
          (i: number) => run(queries[1]!.document, { id: ((i * 31) % scale.parts) + 1 }),
          () => run(queries[0]!.document),
          () => run(nested(10)),
          (i: number) => run('query($p: Int) { orderList(page: $p, pageSize: 20) { items { total customer { name } } } }', { p: (i % 100) + 1 }),
        ];
        for (let i = 0; i < 500; i++) await mixed[i % mixed.length]!(i);
        const heapBefore = heapUsedMb();
        const started = performance.now();
        for (let i = 0; i < 5000; i++) await mixed[i % mixed.length]!(i);
        const seconds = (performance.now() - started) / 1000;
        const heapAfter = heapUsedMb();
        heap.push([kind, heapBefore, heapAfter, heapAfter - heapBefore, seconds, 5000 / seconds]);
      }
      printTable('5,000 mixed queries', ['database', 'heap before (MB)', 'heap after (MB)', 'growth (MB)', 'seconds', 'queries / s'], heap);
    } finally {
      for (const app of apps.values()) await app.close();
      await raw.end();
    }
  },
};

export default benchmark;
