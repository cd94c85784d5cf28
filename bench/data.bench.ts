/**
 * `npm run bench -- data [--rebuild]`: the data layer on a scaled synthetic shop (100,000 parts,
 * 1,000,000 order lines) loaded with `app.load` into a temp SQLite file, reused between runs.
 */
import { existsSync, rmSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import { userActor } from '../src/core/index.js';
import { defineApp, defineManager, sqlite } from '../src/data/index.js';
import type { App, ManagerSpec } from '../src/data/index.js';
import type { Benchmark } from './harness.js';
import { heapUsedMb, machineLine, measure, printTable, summarize } from './harness.js';

const scale = { materials: 60, parts: 100_000, projects: 2_000, partsPerProject: 10, customers: 10_000, orders: 200_000, lines: 1_000_000 };
const path = join(tmpdir(), `plumb-bench-data-${scale.parts}-${scale.lines}-v1.db`);

const managers: readonly ManagerSpec[] = [
  defineManager({ name: 'Material', fields: { name: 'string', density: 'float' } }),
  defineManager({
    name: 'Part',
    fields: { name: 'string', sku: 'string', unitPrice: 'decimal', stock: 'integer' },
    relations: { material: { kind: 'one', target: 'Material' } },
  }),
  defineManager({ name: 'Project', fields: { name: 'string', status: { type: 'enum', values: ['planned', 'active', 'done'] } }, relations: { parts: { kind: 'manyToMany', target: 'Part' } } }),
  defineManager({ name: 'Customer', fields: { name: 'string', city: 'string' } }),
  defineManager({ name: 'Order', fields: { total: 'decimal', placedAt: 'datetime' }, relations: { customer: { kind: 'one', target: 'Customer' } } }),
  defineManager({
    name: 'OrderLine',
    fields: { quantity: 'integer', unitPrice: 'decimal' },
    relations: { order: { kind: 'one', target: 'Order', reverse: 'lines' }, part: { kind: 'one', target: 'Part' } },
  }),
];

const metals = ['Steel', 'Aluminum', 'Cobalt', 'Brass', 'Copper', 'Titanium', 'Nickel', 'Zinc', 'Alumina', 'Bronze'];
const cities = ['Lisbon', 'Porto', 'Braga', 'Faro', 'Coimbra'];

const cents = (value: number): string => `${Math.floor(value / 100)}.${String(value % 100).padStart(2, '0')}`;

const cpuSeconds = (usage: NodeJS.CpuUsage): number => (usage.user + usage.system) / 1e6;

function* range<T>(count: number, make: (i: number) => T): Generator<T> {
  for (let i = 0; i < count; i++) yield make(i);
}

async function build(): Promise<{ seconds: number; cpuSeconds: number; linesPerSecond: number; linesCpuPerSecond: number }> {
  rmSync(path, { force: true });
  rmSync(`${path}-wal`, { force: true });
  rmSync(`${path}-shm`, { force: true });
  const app = defineApp({ managers, database: sqlite({ path }) });
  const started = performance.now();
  const cpu = process.cpuUsage();
  await app.load('Material', range(scale.materials, (i) => ({ name: `${metals[i % metals.length]} ${Math.floor(i / metals.length) + 1}`, density: 2 + (i % 9) })));
  await app.load('Part', range(scale.parts, (i) => ({ name: `Part ${i + 1}`, sku: `P-${i + 1}`, unitPrice: cents((i % 5000) + 100), stock: i % 300, material: (i % scale.materials) + 1 })));
  await app.load('Project', range(scale.projects, (i) => ({ name: `Project ${i + 1}`, status: 'active', parts: [...range(scale.partsPerProject, (k) => ((i * 37 + k * 7919) % scale.parts) + 1)] })));
  await app.load('Customer', range(scale.customers, (i) => ({ name: `Customer ${i + 1}`, city: cities[i % cities.length] })));
  await app.load('Order', range(scale.orders, (i) => ({ total: cents(i % 10_000), placedAt: new Date(Date.UTC(2025, 0, 1) + i * 60_000), customer: (i % scale.customers) + 1 })));
  const linesStarted = performance.now();
  const linesCpu = process.cpuUsage();
  await app.load('OrderLine', range(scale.lines, (i) => ({ quantity: (i % 9) + 1, unitPrice: cents(i % 2000), order: (i % scale.orders) + 1, part: ((i * 13) % scale.parts) + 1 })));
  const linesSeconds = (performance.now() - linesStarted) / 1000;
  const linesCpuSeconds = cpuSeconds(process.cpuUsage(linesCpu));
  await app.close();
  const seconds = (performance.now() - started) / 1000;
  return { seconds, cpuSeconds: cpuSeconds(process.cpuUsage(cpu)), linesPerSecond: scale.lines / linesSeconds, linesCpuPerSecond: scale.lines / linesCpuSeconds };
}

const admin = userActor('bench', ['admin']);

/** Whether the dataset file exists and finished loading (a crashed build leaves it partial). */
async function complete(): Promise<boolean> {
  if (!existsSync(path)) return false;
  const app = defineApp({ managers, database: sqlite({ path }) });
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
      printTable('Loading the scaled dataset with app.load', ['rows', 'wall s', 'CPU s', 'order lines / wall s', 'order lines / CPU s'], [
        [`${scale.parts} parts, ${scale.lines} lines, ${scale.orders} orders, …`, built.seconds, built.cpuSeconds, built.linesPerSecond, built.linesCpuPerSecond],
      ]);
    }
    const app = defineApp({ managers, database: sqlite({ path }) });
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
    const lines = '{ orderLineList(pageSize: 50, filter: {order__customer__city: "Porto", quantity__gte: 5}) { items { quantity unitPrice part { name } } pageInfo { totalCount } } }';
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
