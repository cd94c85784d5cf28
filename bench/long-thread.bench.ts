/**
 * `npm run bench -- long-thread [--turns N] [--lengths 200,2000] [--repeat N]`: what one chat turn
 * (K = 1: a tool call, then a final text) costs on a thread that already holds many turns, against
 * the same turn on a fresh thread, on the memory store and the SQLite store (WAL, durability
 * normal). Each (store, length) runs in a fresh process of its own: 100 warm-up turns on threads of
 * their own, then the thread built to its length (unmeasured), then `--turns` (200) turns that
 * continue it, measured; a fresh-thread turn is each measured turn on a new thread. `--repeat` (3)
 * rounds alternate the order; the ratio to the fresh turn is taken within a round (same conditions)
 * and its median over the rounds is reported. The load average is printed before and after.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { join } from 'node:path';
import { createMemoryStore, openSqliteStore } from '../src/store/index.js';
import type { Store } from '../src/store/index.js';
import type { Benchmark } from './harness.js';
import { machineLine, measure, option, printTable, summarize } from './harness.js';
import { plumbEngine } from './plumb-kit.js';

const stores: readonly { readonly name: string; readonly open: (dir: string) => Store | Promise<Store> }[] = [
  { name: 'memory store', open: () => createMemoryStore() },
  { name: 'SQLite store (WAL, durability normal)', open: (dir) => openSqliteStore({ path: join(dir, `long-${process.pid}.db`) }) },
];

interface Measured {
  readonly median: number;
  readonly p99: number;
  readonly cpu: number;
}

function count(args: readonly string[], name: string, fallback: number): number {
  const value = Number(option(args, name, String(fallback)));
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer`);
  return value;
}

/** In a child process: `turns` turns on a thread of `before` turns (0: each on a new thread), as one JSON line. */
async function measureHere(store: number, before: number, turns: number, dir: string): Promise<void> {
  const engine = plumbEngine(await stores[store]!.open(dir), 1);
  for (let i = 0; i < 100; i++) await engine.send(`warm${i}`, `w${i}`);
  for (let i = 0; i < before; i++) await engine.send('long', `b${i}`);
  const cpuBefore = process.cpuUsage();
  const samples = await measure(turns, (i) => (before === 0 ? engine.send(`fresh${i}`, `f${i}`) : engine.send('long', `m${i}`)), 0);
  const cpu = process.cpuUsage(cpuBefore);
  await engine.close();
  const stats = summarize(samples);
  const row: Measured = { median: stats.median * 1000, p99: stats.p99 * 1000, cpu: (cpu.user + cpu.system) / turns };
  console.log(JSON.stringify(row));
}

function measureApart(store: number, before: number, turns: number, dir: string): Measured {
  const args = ['--import', 'tsx', join(import.meta.dirname, 'run.ts'), 'long-thread', '--child', String(store), '--before', String(before), '--turns', String(turns), '--dir', dir];
  const out = execFileSync(process.execPath, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  return JSON.parse(out.trim().split('\n').at(-1)!) as Measured;
}

const middle = (values: readonly number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const load = (): string => os.loadavg().map((value) => value.toFixed(2)).join(' ');

const benchmark: Benchmark = {
  name: 'long-thread',
  async run(args) {
    const turns = count(args, '--turns', 200);
    const child = args.indexOf('--child');
    if (child >= 0) return measureHere(Number(args[child + 1]), Number(option(args, '--before', '0')), turns, option(args, '--dir', os.tmpdir()));
    const repeat = count(args, '--repeat', 3);
    const lengths = option(args, '--lengths', '200,2000').split(',').map(Number);
    if (lengths.some((length) => !Number.isInteger(length) || length < 1)) throw new Error('--lengths must be positive integers, separated by commas (200,2000)');
    const all = [0, ...lengths];
    console.log(`long-thread benchmark · ${machineLine()} · ${turns} measured turns per row, ${repeat} rounds · load average ${load()}`);
    const dir = mkdtempSync(join(os.tmpdir(), 'plumb-long-thread-'));
    try {
      // results[store][length index][round]
      const results = stores.map(() => all.map((): Measured[] => []));
      for (let round = 0; round < repeat; round++) {
        // Alternate the order, so that a slow spell of this shared machine falls on every row.
        const order = round % 2 === 0 ? all.map((_, index) => index) : all.map((_, index) => all.length - 1 - index);
        for (let store = 0; store < stores.length; store++) for (const at of order) results[store]![at]!.push(measureApart(store, all[at]!, turns, dir));
      }
      printTable(
        `One K = 1 turn on a long thread against a fresh thread (median µs, ${turns} turns a row; ratio: within each round, the median of ${repeat})`,
        ['store', 'fresh thread µs', ...lengths.flatMap((length) => [`after ${length.toLocaleString('en')} µs`, `/ fresh`, `/ fresh, every round`]), 'CPU µs / turn (fresh · longest)'],
        stores.map((store, index) => {
          const rounds = results[index]!;
          const fresh = rounds[0]!;
          return [
            store.name,
            middle(fresh.map((row) => row.median)),
            ...lengths.flatMap((_, at) => {
              const ratios = rounds[at + 1]!.map((row, round) => row.median / fresh[round]!.median);
              return [middle(rounds[at + 1]!.map((row) => row.median)), middle(ratios), ratios.map((ratio) => ratio.toFixed(2)).join(' · ')];
            }),
            `${middle(fresh.map((row) => row.cpu)).toFixed(0)} · ${middle(rounds.at(-1)!.map((row) => row.cpu)).toFixed(0)}`,
          ];
        }),
      );
      console.log(`\nload average after: ${load()}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};

export default benchmark;
