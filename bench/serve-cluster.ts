/**
 * `bench serve --workers 1,2 --store sqlite,postgres`: `plumb serve --demo --workers N` itself, as a
 * user runs it, on a SQLite journal or a PostgreSQL one (with Redis for the limits and the thread
 * notices), under closed-loop WebSocket and SSE clients; the ai@6 streamText fastify peer under
 * the same SSE load; then idle sockets beside active ones. CPU of every process is read from
 * /proc (the primary, each worker, this run's PostgreSQL backends and the cluster's background
 * processes, Redis), so nothing is measured from inside the server.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import WebSocket from 'ws';
import { printTable, startingGate, summarize } from './harness.js';
import { PostgresCpu } from './postgres-cpu.js';
import type { PostgresDelta } from './postgres-cpu.js';
import { byName, cpuOf, stat, ticksPerSecond, tree } from './proc-cpu.js';

const root = join(import.meta.dirname, '..');

export interface Measured {
  readonly latencies: number[];
  readonly turnNumbers: number[];
  errors: number;
  codes?: Map<string, number>;
}
export interface ClientPlan {
  readonly turns: number;
  readonly thinkMs: number;
}
export type Client = (base: string, plan: ClientPlan, result: Measured, arrive: () => Promise<void>) => Promise<void>;

export interface Running {
  readonly url: string;
  readonly child: ChildProcess;
  /** The node processes serving (primary first, then workers). */
  readonly serving: () => { primary: number; workers: number[] };
  stop(): Promise<void>;
}

function waitFor(child: ChildProcess, pattern: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (chunk: Buffer): void => {
      out += chunk.toString();
      const match = pattern.exec(out);
      if (match?.[1] !== undefined) resolve(match[1]);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`exited (${code}) before it was ready: ${out}`)));
  });
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** `plumb serve --demo --workers N` on the given journal, with its own demo database. */
export async function startPlumb(dir: string, name: string, workers: number, store: string, redis: string | undefined): Promise<Running> {
  const config = join(dir, `${name}.config.json`);
  writeFileSync(
    config,
    JSON.stringify({
      store,
      provider: `scripted:${join(dir, 'script.json')}`,
      router: 'off',
      // Every turn takes one request from a limit it never reaches: the decision itself is measured (a Lua script on Redis).
      rateLimit: { requests: 1_000_000_000, sessions: null },
      websocketMaxBufferedBytes: 4 * 1024 * 1024,
      sessionSecret: 'bench-session-secret-bench-session-secret',
      // A worker's own event loop is part of every Redis wait: at 1,000 closed-loop clients it lags by seconds (see the p99s).
      ...(redis === undefined ? {} : { redis, redisTimeoutMs: 10_000 }),
    }),
  );
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'src/cli/main.ts'), 'serve', '--demo', '--db', join(dir, `${name}-demo.sqlite`), '--config', config, '--port', '0', '--workers', String(workers)], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  const url = await waitFor(child, /listening on (http:\/\/\S+)/);
  const primary = child.pid ?? 0;
  return {
    url,
    child,
    serving: () => {
      const pids = tree(primary).filter((pid) => stat(pid)?.comm === 'node');
      return { primary, workers: pids.filter((pid) => pid !== primary) };
    },
    stop: () => stopChild(child),
  };
}

async function startPeer(demoDb: string): Promise<Running> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'bench/peer-server.ts'), demoDb], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  const url = await waitFor(child, /listening (http:\/\/\S+)/);
  return { url, child, serving: () => ({ primary: child.pid ?? 0, workers: [] }), stop: () => stopChild(child) };
}

/** CPU used over the measured turns, in ms, by each process (or group of processes). */
export interface CpuUsed {
  readonly primary: number;
  readonly workers: readonly number[];
  /** This run's PostgreSQL backends and the cluster's background processes (undefined: no PostgreSQL journal). */
  readonly postgres: PostgresDelta | undefined;
  /** The whole redis-server process (it serves every session on the machine). */
  readonly redis: number;
  /** This process: the clients. */
  readonly load: number;
}

export interface LoadResult {
  readonly turns: number;
  readonly wallMs: number;
  readonly turnsPerSecond: number;
  readonly p50: number;
  readonly p99: number;
  readonly errors: number;
  /** The errors by code, `code×count`. */
  readonly codes: string;
  readonly used: CpuUsed;
  /** Shares of one core over the measured turns. */
  readonly cpu: { readonly primary: number; readonly workers: readonly number[]; readonly postgres: number; readonly redis: number; readonly load: number };
  readonly cpuPerTurnMs: number;
  readonly rssMb: number;
}

const ms = (ticks: number): number => (ticks / ticksPerSecond) * 1000;

export async function load(running: Running, client: Client, clients: number, plan: ClientPlan, postgres?: PostgresCpu): Promise<LoadResult> {
  const result: Measured = { latencies: [], turnNumbers: [], errors: 0 };
  const { arrive, everyone, release } = startingGate(clients);
  const runs = Promise.all(Array.from({ length: clients }, () => client(running.url, plan, result, arrive)));
  await everyone;
  const { primary, workers } = running.serving();
  const redis = byName('redis-server');
  const postgresTracking = await postgres?.track();
  const before = { primary: cpuOf([primary]), workers: workers.map((pid) => cpuOf([pid])), redis: cpuOf(redis), load: process.cpuUsage() };
  const started = performance.now();
  release();
  await runs;
  const wallMs = performance.now() - started;
  const loadCpu = process.cpuUsage(before.load);
  const used: CpuUsed = {
    primary: ms(cpuOf([primary]) - before.primary),
    workers: workers.map((pid, index) => ms(cpuOf([pid]) - (before.workers[index] ?? 0))),
    redis: ms(cpuOf(redis) - before.redis),
    load: (loadCpu.user + loadCpu.system) / 1000,
    postgres: await postgresTracking?.stop(),
  };
  const share = (usedMs: number): number => (usedMs / wallMs) * 100;
  const latency = summarize(result.latencies);
  const serverMs = used.primary + used.workers.reduce((sum, value) => sum + value, 0);
  return {
    turns: result.latencies.length,
    wallMs,
    turnsPerSecond: (result.latencies.length / wallMs) * 1000,
    p50: latency.median,
    p99: latency.p99,
    errors: result.errors,
    codes: [...(result.codes ?? new Map<string, number>())].map(([code, count]) => `${code}×${count}`).join(' '),
    used,
    cpu: {
      primary: share(used.primary),
      workers: used.workers.map(share),
      postgres: share(used.postgres === undefined ? 0 : used.postgres.backends + used.postgres.background),
      redis: share(used.redis),
      load: share(used.load),
    },
    cpuPerTurnMs: result.latencies.length === 0 ? NaN : serverMs / result.latencies.length,
    rssMb: [primary, ...workers].reduce((sum, pid) => sum + (stat(pid)?.rss ?? 0), 0) / 2 ** 20,
  };
}

/**
 * A fresh schema on the bench's PostgreSQL server, as a journal URL (its search_path in the URL, and
 * an `application_name` of its own, so that its backends' CPU can be told from other sessions').
 */
export async function freshSchema(url: string, name: string): Promise<{ url: string; applicationName: string; drop: () => Promise<void> }> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  const schema = `plumb_bench_${name}_${process.pid}`;
  await admin.query(`drop schema if exists "${schema}" cascade`);
  await admin.query(`create schema "${schema}"`);
  await admin.end();
  const journal = new URL(url);
  journal.searchParams.set('options', `-c search_path=${schema}`);
  journal.searchParams.set('application_name', schema);
  return {
    url: journal.toString(),
    applicationName: schema,
    drop: async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`drop schema if exists "${schema}" cascade`);
      await client.end();
    },
  };
}

export interface ClusterBenchOptions {
  readonly dir: string;
  readonly workers: readonly number[];
  readonly stores: readonly ('sqlite' | 'postgres')[];
  readonly clients: number;
  readonly turns: number;
  readonly idle: number;
  readonly postgresUrl: string | undefined;
  readonly redisUrl: string | undefined;
  readonly sse: Client;
  readonly ws: Client;
}

export async function runClusterBench(options: ClusterBenchOptions): Promise<void> {
  const { dir, clients, turns } = options;
  const plan = { turns, thinkMs: 0 };
  const rows: (string | number)[][] = [];
  const sseRows = new Map<string, LoadResult>();
  let demoDb: string | undefined;
  for (const store of options.stores) {
    if (store === 'postgres' && options.postgresUrl === undefined) throw new Error('--store postgres needs PLUMB_BENCH_POSTGRES_URL (or PLUMB_TEST_POSTGRES_URL)');
    for (const workers of options.workers) {
      for (const transport of ['websocket', 'sse'] as const) {
        const name = `${store}-w${workers}-${transport}`;
        const schema = store === 'postgres' ? await freshSchema(options.postgresUrl!, name.replace(/-/g, '_')) : undefined;
        const running = await startPlumb(dir, name, workers, schema?.url ?? join(dir, `${name}.sqlite`), options.redisUrl);
        demoDb ??= join(dir, `${name}-demo.sqlite`);
        const client = transport === 'sse' ? options.sse : options.ws;
        const postgres = schema === undefined ? undefined : await PostgresCpu.connect(options.postgresUrl!, schema.applicationName);
        await load(running, client, Math.min(200, clients), { turns: 3, thinkMs: 0 }); // warm-up: JIT and heaps settle
        const result = await load(running, client, clients, plan, postgres);
        await postgres?.close();
        await running.stop();
        await schema?.drop();
        if (transport === 'sse') sseRows.set(`${store}-${workers}`, result);
        rows.push([transport, store, String(workers), String(clients), result.turnsPerSecond, result.p50, result.p99, result.errors === 0 ? '0' : `${result.errors} (${result.codes})`, result.cpu.primary, result.cpu.workers.map((value) => value.toFixed(0)).join(' + '), result.cpu.postgres, result.cpu.redis, result.cpu.load, result.cpuPerTurnMs, result.rssMb]);
      }
    }
  }
  printTable(`plumb serve --demo --workers N under ${clients} closed-loop clients (${turns} turns each), side by side`, ['transport', 'store', 'workers', 'clients', 'turns/s', 'p50 ms', 'p99 ms', 'errors', 'primary CPU %', 'workers CPU %', 'PostgreSQL CPU %', 'Redis CPU %', 'load CPU %', 'server CPU ms / turn', 'server RSS MiB'], rows);
  const ratioRows: (string | number)[][] = [];
  for (const transport of ['websocket', 'sse']) {
    for (const store of options.stores) {
      const one = rows.find((row) => row[0] === transport && row[1] === store && row[2] === '1');
      const two = rows.find((row) => row[0] === transport && row[1] === store && row[2] === '2');
      if (one !== undefined && two !== undefined) ratioRows.push([transport, store, (two[4] as number) / (one[4] as number)]);
    }
  }
  if (ratioRows.length > 0) printTable('Two workers against one (turns/s)', ['transport', 'store', '2 workers / 1 worker'], ratioRows);

  if (demoDb !== undefined) {
    const peer = await startPeer(demoDb);
    await load(peer, options.sse, Math.min(200, clients), { turns: 3, thinkMs: 0 });
    const result = await load(peer, options.sse, clients, plan);
    await peer.stop();
    const peerRows: (string | number)[][] = [['ai@6 streamText on fastify (in memory, not durable)', result.turnsPerSecond, result.p50, result.p99, String(result.errors), result.cpuPerTurnMs, 1, 1]];
    for (const [key, plumb] of sseRows) peerRows.push([`Plumb, ${key.replace('-', ' journal, ')} worker(s)`, plumb.turnsPerSecond, plumb.p50, plumb.p99, String(plumb.errors), plumb.cpuPerTurnMs, plumb.turnsPerSecond / result.turnsPerSecond, plumb.cpuPerTurnMs / result.cpuPerTurnMs]);
    printTable(`SSE under ${clients} clients: Plumb against the ai@6 peer, same run`, ['server', 'turns/s', 'p50 ms', 'p99 ms', 'errors', 'server CPU ms / turn', 'turns/s / peer', 'CPU per turn / peer'], peerRows);
  }

  if (options.idle > 0) {
    const store = options.postgresUrl === undefined ? undefined : await freshSchema(options.postgresUrl, 'idle');
    const running = await startPlumb(dir, 'idle', 2, store?.url ?? join(dir, 'idle.sqlite'), options.redisUrl);
    const before = running.serving();
    const rssBefore = [before.primary, ...before.workers].reduce((sum, pid) => sum + (stat(pid)?.rss ?? 0), 0);
    const sockets: WebSocket[] = [];
    let failed = 0;
    const wsUrl = `${running.url.replace('http', 'ws')}/chat/`;
    for (let opened = 0; opened < options.idle; opened += 500) {
      await Promise.all(
        Array.from({ length: Math.min(500, options.idle - opened) }, () =>
          new Promise<void>((resolve) => {
            const socket = new WebSocket(wsUrl, { origin: running.url });
            socket.once('open', () => {
              sockets.push(socket);
              resolve();
            });
            socket.once('error', () => {
              failed++;
              resolve();
            });
          }),
        ),
      );
    }
    const after = running.serving();
    const rssIdle = [after.primary, ...after.workers].reduce((sum, pid) => sum + (stat(pid)?.rss ?? 0), 0);
    const result = await load(running, options.ws, clients, plan);
    for (const socket of sockets) socket.terminate();
    await running.stop();
    await store?.drop();
    printTable(`${options.idle.toLocaleString('en')} idle WebSockets beside ${clients} active clients, two workers (${store === undefined ? 'SQLite' : 'PostgreSQL'} journal)`, ['idle sockets open', 'failed to open', 'active turns/s', 'p50 ms', 'p99 ms', 'errors', 'server RSS with the idle sockets MiB', 'RSS per idle socket KiB'], [
      [String(sockets.length), String(failed), result.turnsPerSecond, result.p50, result.p99, String(result.errors), rssIdle / 2 ** 20, (rssIdle - rssBefore) / Math.max(1, sockets.length) / 1024],
    ]);
  }
}
