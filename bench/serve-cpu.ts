/**
 * `bench serve --cpu [--workers 1,2] [--store sqlite,postgres] [--clients 1000] [--turns 10]`:
 * `plumb serve --demo --workers N` under closed-loop WebSocket clients, as the cluster bench drives
 * them, reporting the CPU each process spends per turn (from /proc: each Plumb process, this run's
 * PostgreSQL backends, the cluster's background processes, Redis, the load generator) and the
 * turns one core-second of Plumb serves; then, from those figures, the turns/s a machine of 8, 16
 * and 64 cores would carry with Plumb, PostgreSQL and Redis on it, and what would limit it.
 */
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { printTable } from './harness.js';
import { PostgresCpu } from './postgres-cpu.js';
import { freshSchema, load, startPlumb } from './serve-cluster.js';
import type { ClusterBenchOptions, LoadResult } from './serve-cluster.js';

export type CpuBenchOptions = Omit<ClusterBenchOptions, 'idle' | 'sse'>;

/** CPU per turn, in µs, of each component a deployment runs (the load generator is not one). */
interface PerTurn {
  readonly plumb: number;
  readonly postgres: number;
  readonly redis: number;
  /** The busiest single PostgreSQL background process (one core at most), and which. */
  readonly postgresSerial: { readonly kind: string; readonly us: number };
}

const loadAverage = (): string => loadavg().map((value) => value.toFixed(2)).join(' ');

function perTurn(result: LoadResult): PerTurn {
  const us = (ms: number): number => (ms * 1000) / result.turns;
  const { used } = result;
  return {
    plumb: us(used.primary + used.workers.reduce((sum, value) => sum + value, 0)),
    postgres: us(used.postgres === undefined ? 0 : used.postgres.backends + used.postgres.background),
    redis: us(used.redis),
    postgresSerial: { kind: used.postgres?.busiestBackground.kind ?? '', us: us(used.postgres?.busiestBackground.cpu ?? 0) },
  };
}

/**
 * turns/s on `cores` cores shared by Plumb, PostgreSQL and Redis in proportion to what each spends
 * per turn: cores ÷ (the CPU per turn of all three), unless a single-threaded part — Redis, or the
 * busiest PostgreSQL background process — reaches one core first.
 */
function project(cost: PerTurn, cores: number): { turnsPerSecond: number; limit: string } {
  const shared = (cores * 1e6) / (cost.plumb + cost.postgres + cost.redis);
  const limits = [
    { turnsPerSecond: shared, limit: `the cores (Plumb ${share(cost.plumb, cost)}, PostgreSQL ${share(cost.postgres, cost)}, Redis ${share(cost.redis, cost)} of them)` },
    { turnsPerSecond: cost.redis > 0 ? 1e6 / cost.redis : Infinity, limit: 'Redis (one thread at 100 %)' },
    { turnsPerSecond: cost.postgresSerial.us > 0 ? 1e6 / cost.postgresSerial.us : Infinity, limit: `PostgreSQL's ${cost.postgresSerial.kind} (one process at 100 %)` },
  ];
  return limits.reduce((lowest, next) => (next.turnsPerSecond < lowest.turnsPerSecond ? next : lowest));
}

function share(part: number, cost: PerTurn): string {
  return `${((100 * part) / (cost.plumb + cost.postgres + cost.redis)).toFixed(0)} %`;
}

export async function runCpuBench(options: CpuBenchOptions): Promise<void> {
  const { dir, clients, turns } = options;
  const rows: (string | number)[][] = [];
  const projected: (string | number)[][] = [];
  for (const store of options.stores) {
    if (store === 'postgres' && options.postgresUrl === undefined) throw new Error('--store postgres needs PLUMB_BENCH_POSTGRES_URL (or PLUMB_TEST_POSTGRES_URL)');
    for (const workers of options.workers) {
      const name = `cpu-${store}-w${workers}`;
      const schema = store === 'postgres' ? await freshSchema(options.postgresUrl!, name.replace(/-/g, '_')) : undefined;
      const running = await startPlumb(dir, name, workers, schema?.url ?? join(dir, `${name}.sqlite`), options.redisUrl);
      const postgres = schema === undefined ? undefined : await PostgresCpu.connect(options.postgresUrl!, schema.applicationName);
      const loadBefore = loadAverage();
      await load(running, options.ws, Math.min(200, clients), { turns: 3, thinkMs: 0 }); // warm-up: JIT and heaps settle
      const result = await load(running, options.ws, clients, { turns, thinkMs: 0 }, postgres);
      await postgres?.close();
      await running.stop();
      await schema?.drop();
      const us = (ms: number): number => (ms * 1000) / result.turns;
      const cost = perTurn(result);
      const { used } = result;
      rows.push([
        store,
        String(workers),
        String(result.turns),
        result.errors === 0 ? '0' : `${result.errors} (${result.codes})`,
        result.turnsPerSecond,
        `${loadBefore} → ${loadAverage()}`,
        [used.primary, ...used.workers].map((value) => us(value).toFixed(0)).join(' + '),
        cost.plumb,
        used.postgres === undefined ? '—' : us(used.postgres.backends),
        used.postgres === undefined ? '—' : `${us(used.postgres.background).toFixed(0)}${cost.postgresSerial.kind === '' ? '' : ` (${cost.postgresSerial.kind} ${cost.postgresSerial.us.toFixed(0)})`}`,
        used.postgres === undefined ? '—' : us(used.postgres.cluster),
        cost.redis,
        us(used.load),
        cost.plumb + cost.postgres + cost.redis,
        1e6 / cost.plumb,
      ]);
      if (store === 'postgres') {
        for (const cores of [8, 16, 64]) {
          const { turnsPerSecond, limit } = project(cost, cores);
          projected.push([String(workers), String(cores), turnsPerSecond, limit]);
        }
      }
    }
  }
  printTable(`CPU per WebSocket turn, each process (µs), ${clients} closed-loop clients × ${turns} turns`, ['store', 'workers', 'turns', 'errors', 'turns/s', 'load average before → after', 'Plumb: primary + each worker', 'Plumb', 'PostgreSQL: this run\'s backends', 'PostgreSQL: background (busiest)', 'PostgreSQL: whole cluster, other sessions too', 'Redis (whole server)', 'load generator', 'Plumb + PostgreSQL + Redis', 'Plumb turns per core-second'], rows);
  if (projected.length > 0) printTable('Projected turns/s on a PostgreSQL journal, Plumb, PostgreSQL and Redis on the same cores (from the CPU per turn measured with that many workers)', ['measured with workers', 'cores', 'turns/s', 'limit'], projected);
}
