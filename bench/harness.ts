/** Shared measuring helpers for `bench/*.bench.ts`. Timings here, never in tests. */
import os from 'node:os';

export interface Benchmark {
  readonly name: string;
  run(args: readonly string[]): Promise<void>;
}

export interface Summary {
  readonly count: number;
  readonly median: number;
  readonly p99: number;
  readonly mean: number;
  readonly min: number;
  readonly max: number;
}

export function summarize(samples: readonly number[]): Summary {
  if (samples.length === 0) return { count: 0, median: NaN, p99: NaN, mean: NaN, min: NaN, max: NaN };
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number): number => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? NaN;
  const total = sorted.reduce((sum, value) => sum + value, 0);
  return {
    count: sorted.length,
    median: at(0.5),
    p99: at(0.99),
    mean: total / sorted.length,
    min: sorted[0] ?? NaN,
    max: sorted[sorted.length - 1] ?? NaN,
  };
}

/** Runs `fn` `warmup` times unmeasured, then `count` times, and returns per-call durations in ms. */
export async function measure(count: number, fn: (i: number) => unknown, warmup = Math.min(100, count)): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await fn(i);
  const samples: number[] = new Array<number>(count);
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    await fn(i);
    samples[i] = performance.now() - start;
  }
  return samples;
}

/** Same as `measure` for synchronous work, without an await per call (for µs-scale paths). */
export function measureSync(count: number, fn: (i: number) => unknown, warmup = Math.min(1000, count)): number[] {
  for (let i = 0; i < warmup; i++) fn(i);
  const samples: number[] = new Array<number>(count);
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    fn(i);
    samples[i] = performance.now() - start;
  }
  return samples;
}

export function heapUsedMb(): number {
  globalThis.gc?.();
  return process.memoryUsage().heapUsed / 1024 / 1024;
}

/** Prints a Markdown table (so results paste straight into docs/benchmarks.md). */
export function printTable(title: string, header: readonly string[], rows: readonly (readonly (string | number)[])[]): void {
  const cell = (value: string | number): string => (typeof value === 'number' ? formatNumber(value) : value);
  console.log(`\n### ${title}\n`);
  console.log(`| ${header.join(' | ')} |`);
  console.log(`| ${header.map(() => '---').join(' | ')} |`);
  for (const row of rows) console.log(`| ${row.map(cell).join(' | ')} |`);
}

export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  if (Math.abs(value) >= 100) return value.toFixed(0);
  if (Math.abs(value) >= 1) return value.toFixed(2);
  return value.toFixed(4);
}

export function machineLine(): string {
  return `${new Date().toISOString().slice(0, 10)} · node ${process.version} · ${os.cpus().length} cores · ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB`;
}

/**
 * A gate for N clients that start together: each awaits `arrive()` once it is connected, `everyone`
 * resolves when all have, and `release()` lets them all go (so that connecting is not timed).
 */
export function startingGate(clients: number): { readonly arrive: () => Promise<void>; readonly everyone: Promise<void>; readonly release: () => void } {
  let arrived = 0;
  let allArrived = (): void => undefined;
  const everyone = new Promise<void>((resolve) => (allArrived = resolve));
  let release = (): void => undefined;
  const go = new Promise<void>((resolve) => (release = resolve));
  const arrive = (): Promise<void> => {
    if (++arrived === clients) allArrived();
    return go;
  };
  return { arrive, everyone, release };
}

/** The value after `name` in a bench's arguments (`--turns 300`), else `fallback`. */
export function option(args: readonly string[], name: string): string | undefined;
export function option(args: readonly string[], name: string, fallback: string): string;
export function option(args: readonly string[], name: string, fallback?: string): string | undefined {
  const index = args.indexOf(name);
  return index >= 0 ? (args[index + 1] ?? fallback) : fallback;
}
