/**
 * `npm run bench -- data [--rebuild]`: the data layer on the scaled demo shop (100,000 parts,
 * 1,000,000 order lines) loaded with `app.load` into a temp SQLite file, reused between runs.
 */
import { existsSync, rmSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import { userActor } from '../src/core/index.js';
import { defineApp, sqlite } from '../src/data/index.js';
import type { App } from '../src/data/index.js';
import { createDemoApp, demoManagers } from '../src/demo/index.js';
import type { Benchmark } from './harness.js';
import { heapUsedMb, machineLine, measure, printTable, summarize } from './harness.js';

/** The scaled demo: scale 100 → 100,000 parts, 100,000 orders and 1,000,000 order lines. */
const scale = { unit: 100, parts: 100_000, lines: 1_000_000 };
const path = join(tmpdir(), `plumb-bench-demo-scale-${scale.unit}-v1.sqlite`);

const cpuSeconds = (usage: NodeJS.CpuUsage): number => (usage.user + usage.system) / 1e6;

async function build(): Promise<{ seconds: number; cpuSeconds: number; linesPerSecond: number }> {
  for (const file of [path, `${path}-wal`, `${path}-shm`]) rmSync(file, { force: true });
  const cpu = process.cpuUsage();
  const started = performance.now();
  const app = await createDemoApp({ path, scale: scale.unit });
  await app.close();
  const seconds = (performance.now() - started) / 1000;
  return { seconds, cpuSeconds: cpuSeconds(process.cpuUsage(cpu)), linesPerSecond: scale.lines / seconds };
}

const admin = userActor('bench', ['admin']);

/** Whether the dataset file exists and finished loading (a crashed build leaves it partial). */
async function complete(): Promise<boolean> {
  if (!existsSync(path)) return false;
  const app = defineApp({ managers: [...demoManagers], database: sqlite({ path }) });
  try {
    return (await app.count(admin, 'OrderLine')) === scale.lines;
  } catch {
    return false;
  } finally {
    await app.close();
  }
}

async function statementsPer(app: App, document: string, variables?: Record<string, unknown>): Promise<number> {
  const before = app.stats.statements;
  const result = await app.graphql({ actor: admin, document, variables });
  if (result.errors !== undefined) throw new Error(JSON.stringify(result.errors));
  return app.stats.statements - before;
}

const benchmark: Benchmark = {
  name: 'data',
  async run(args) {
    console.log(`${machineLine()} · load average ${os.loadavg().map((value) => value.toFixed(1)).join(' ')}`);
    if (args.includes('--rebuild') || !(await complete())) {
      console.log(`building ${path} …`);
      const built = await build();
      printTable('Seeding the scaled demo (--scale 100) with app.load', ['rows', 'wall s', 'CPU s', 'order lines / wall s'], [
        [`${scale.parts} parts, ${scale.lines} order lines, …`, built.seconds, built.cpuSeconds, built.linesPerSecond],
      ]);
    }
    const app = defineApp({ managers: [...demoManagers], database: sqlite({ path }) });
    await app.ready();
    const run = async (document: string, variables?: Record<string, unknown>): Promise<void> => {
      const result = await app.graphql({ actor: admin, document, variables });
      if (result.errors !== undefined) throw new Error(JSON.stringify(result.errors));
    };
    const filtered = '{ partList(filter: {material__name__icontains: "alu"}, pageSize: 50) { items { id name unitPrice } pageInfo { totalCount hasNextPage } } }';
    const nested = (pageSize: number) => `{ projectList(pageSize: ${pageSize}) { items { name parts { name material { name } } } } }`;
    const byId = 'query($id: ID!) { part(id: $id) { id name sku unitPrice stock } }';

    const rows: (string | number)[][] = [];
    const add = async (name: string, count: number, fn: (i: number) => Promise<void>, statements: number): Promise<void> => {
      const summary = summarize(await measure(count, fn));
      rows.push([name, count, summary.median, summary.p99, statements]);
    };
    await add('parts whose material name contains "alu", first page (50) + totalCount', 200, () => run(filtered), await statementsPer(app, filtered));
    await add('projects → parts → material, 50 projects', 200, () => run(nested(50)), await statementsPer(app, nested(50)));
    await add('projects → parts → material, 5 projects', 200, () => run(nested(5)), await statementsPer(app, nested(5)));
    await add('part by id', 5000, (i) => run(byId, { id: (i * 7919) % scale.parts + 1 }), await statementsPer(app, byId, { id: 1 }));
    const lines = '{ orderLineList(pageSize: 50, filter: {order__customer__city: "São Paulo", quantity__gte: 5}) { items { quantity unitPrice part { name } } pageInfo { totalCount } } }';
    await add('order lines by customer city (2 hops) + totalCount', 50, () => run(lines), await statementsPer(app, lines));
    printTable('Data layer queries (ms)', ['query', 'runs', 'median', 'p99', 'SQL statements / query'], rows);

    const mixed = [
      (i: number) => run(byId, { id: (i * 31) % scale.parts + 1 }),
      () => run(filtered),
      () => run(nested(10)),
      (i: number) => run('query($p: Int) { orderList(page: $p, pageSize: 20) { items { total customer { name } } } }', { p: (i % 100) + 1 }),
    ];
    for (let i = 0; i < 500; i++) await mixed[i % mixed.length]!(i);
    const heapBefore = heapUsedMb();
    const started = performance.now();
    for (let i = 0; i < 10_000; i++) await mixed[i % mixed.length]!(i);
    const seconds = (performance.now() - started) / 1000;
    const heapAfter = heapUsedMb();
    printTable('10,000 mixed queries', ['heap before (MB)', 'heap after (MB)', 'growth (MB)', 'seconds', 'queries / s'], [[heapBefore, heapAfter, heapAfter - heapBefore, seconds, 10_000 / seconds]]);
    await app.close();
  },
};

export default benchmark;
