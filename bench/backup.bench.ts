/**
 * `npm run bench -- backup [--mb 1024] [--runs 3] [--dir DIR] [--keep]`
 *
 * `plumb store backup` on a SQLite journal of `--mb` MiB (docs/store.md, "Upkeep"): the journal is
 * written through the store (threads of one turn, each with 20 items of ~8 KiB, one append per
 * thread), then backed up with `backupStore` — what the CLI runs — `--runs` times on the quiet
 * journal, and once while a writer process appends turns on the same file as a server would. The
 * floor is `cp` of the same file (the kernel copying it, no SQLite). Reported: seconds per backup
 * and MiB/s; for the run with the writer, its commits during the backup (latency p50, p99, max)
 * against its commits before it began. The file is in the page cache (just written): the backup
 * reads memory, not the disk, as a backup of a journal a server keeps busy would mostly do.
 * `--keep` leaves the journal in `--dir` for another run (`--dir` reused when its journal exists).
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parseConfig } from '../src/config/index.js';
import { backupStore } from '../src/server/index.js';
import { openSqliteStore } from '../src/store/index.js';
import { machineLine, option, printTable, summarize } from './harness.js';
import type { Benchmark } from './harness.js';

const run = promisify(execFile);
const mib = 1024 * 1024;

/** One thread: its turn and 20 items of ~8 KiB (an item of JSON text, as tool results are). */
async function fill(path: string, megabytes: number): Promise<void> {
  const store = await openSqliteStore({ path });
  try {
    const chunk = 'lorem ipsum dolor sit amet, '.repeat(290);
    for (let thread = 0; statSync(path).size + (existsSync(`${path}-wal`) ? statSync(`${path}-wal`).size : 0) < megabytes * mib; thread++) {
      const begun = await store.beginTurn({ owner: `user:u${thread % 50}`, newThread: true, requestKey: `r${thread}`, input: `question ${thread}` });
      if (begun.outcome !== 'created') throw new Error(`turn ${thread} was not created`);
      await store.appendItems(begun.turn.id, Array.from({ length: 20 }, (_, i) => ({ kind: 'tool_result' as const, data: { callId: `c${i}`, rows: `${thread}:${i}:${chunk}` } })), { status: 'completed' });
    }
  } finally {
    // The last connection's close checkpoints the WAL into the file and removes it.
    await store.close();
  }
}

/** The writer's threads in the journal at `path`. */
async function writerThreads(path: string): Promise<number> {
  const store = await openSqliteStore({ path, readonly: true });
  try {
    return (await store.listThreads('user:writer')).length;
  } finally {
    await store.close();
  }
}

/** The writer process: appends turns until stdin closes, then prints `[at ms, latency ms]` per commit. */
async function writer(path: string): Promise<void> {
  const store = await openSqliteStore({ path });
  const samples: [number, number][] = [];
  let open = true;
  process.stdin.on('end', () => (open = false));
  process.stdin.resume();
  process.stdout.write('ready\n');
  for (let i = 0; open; i++) {
    const start = performance.now();
    const begun = await store.beginTurn({ owner: 'user:writer', newThread: true, requestKey: `w${process.pid}-${i}`, input: 'during the backup' });
    if (begun.outcome === 'created') await store.appendItems(begun.turn.id, [{ kind: 'assistant_text', data: { text: 'an answer' } }], { status: 'completed' });
    samples.push([performance.timeOrigin + start, performance.now() - start]);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  await store.close();
  process.stdout.write(`${JSON.stringify(samples)}\n`);
}

async function backupOnce(journal: string, target: string): Promise<number> {
  rmSync(target, { force: true });
  const config = parseConfig({ store: journal });
  const report = await backupStore(config, { root: tmpdir(), file: target });
  if (report.kind !== 'sqlite') throw new Error('expected a SQLite backup');
  return report.ms / 1000;
}

const benchmark: Benchmark = {
  name: 'backup',
  async run(args) {
    const writerPath = option(args, '--writer');
    if (writerPath !== undefined) return writer(writerPath);
    const megabytes = Number(option(args, '--mb', '1024'));
    const runs = Number(option(args, '--runs', '3'));
    const dir = option(args, '--dir') ?? mkdtempSync(join(tmpdir(), 'plumb-bench-backup-'));
    mkdirSync(dir, { recursive: true });
    const journal = join(dir, 'chat.sqlite');
    const target = join(dir, 'copy.sqlite');
    try {
      let fillSeconds = NaN;
      if (!existsSync(journal)) {
        const started = performance.now();
        await fill(journal, megabytes);
        fillSeconds = (performance.now() - started) / 1000;
      }
      const size = statSync(journal).size / mib;
      console.log(`${machineLine()} · load ${loadavg().map((n) => n.toFixed(1)).join(' ')}`);
      console.log(`journal: ${size.toFixed(0)} MiB${Number.isNaN(fillSeconds) ? ' (reused)' : `, written in ${fillSeconds.toFixed(1)} s`}`);

      const copies: number[] = [];
      for (let i = 0; i < runs; i++) {
        rmSync(target, { force: true });
        const started = performance.now();
        await run('cp', [journal, target]);
        copies.push((performance.now() - started) / 1000);
      }
      const quiet: number[] = [];
      for (let i = 0; i < runs; i++) quiet.push(await backupOnce(journal, target));

      const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'run.ts'), 'backup', '--writer', journal], { stdio: ['pipe', 'pipe', 'inherit'] });
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      while (!out.includes('ready\n')) await new Promise((resolve) => setTimeout(resolve, 20));
      await new Promise((resolve) => setTimeout(resolve, 2000));
      const began = performance.timeOrigin + performance.now();
      const busy = await backupOnce(journal, target);
      const ended = performance.timeOrigin + performance.now();
      await new Promise((resolve) => setTimeout(resolve, 500));
      child.stdin.end();
      await new Promise((resolve) => child.once('exit', resolve));
      const samples = JSON.parse(out.slice(out.indexOf('ready\n') + 6).trim()) as [number, number][];
      const before = summarize(samples.filter(([at]) => at < began).map(([, ms]) => ms));
      const during = summarize(samples.filter(([at]) => at >= began && at < ended).map(([, ms]) => ms));
      const inCopy = await writerThreads(target);
      const finishedBefore = samples.filter(([at, ms]) => at + ms < began).length;

      const row = (what: string, seconds: readonly number[]): (string | number)[] => {
        const s = summarize(seconds);
        return [what, s.median, s.min, s.max, size / s.median];
      };
      printTable(`Backup of a ${size.toFixed(0)} MiB journal`, ['what', 'median s', 'min s', 'max s', 'MiB/s'], [row('cp (the floor)', copies), row('plumb store backup, quiet journal', quiet), row('plumb store backup, a writer appending', [busy])]);
      printTable('The writer\'s commits (a turn and its answer, one beginTurn + one appendItems)', ['when', 'commits', 'p50 ms', 'p99 ms', 'max ms'], [
        ['before the backup (2 s)', String(before.count), before.median, before.p99, before.max],
        ['during the backup', String(during.count), during.median, during.p99, during.max],
      ]);
      console.log(`\nthe writer's turns: ${finishedBefore} committed before the backup began, ${inCopy} in the copy, ${await writerThreads(journal)} in the journal once it stopped`);
    } finally {
      rmSync(target, { force: true });
      if (!args.includes('--keep')) rmSync(dir, { recursive: true, force: true });
    }
  },
};

export default benchmark;
