/**
 * `npm run bench -- serve [--clients 200,500,1000] [--turns 5] [--transports sse,websocket] [--by-turn] [--think-ms N]`
 * `npm run bench -- serve --workers 1,2 --store sqlite,postgres [--clients 1000] [--turns 5] [--idle 10000]`: see serve-cluster.ts.
 * `npm run bench -- serve --cpu [--workers 1,2] [--store sqlite,postgres] [--clients 1000] [--turns 10]`: CPU per turn of each process, see serve-cpu.ts.
 *
 * The chat server over the demo app with a scripted provider (one tool call and 10 text chunks per
 * turn), in its own process; this process is the load: N concurrent clients, each doing T turns,
 * over SSE and over WebSocket. Reports turns/s, p50/p99 turn latency, errors, the server's peak
 * RSS and RSS per connection, and the CPU each process used over the measured turns (in shares of
 * one core: the server's includes V8's helper threads) with the share of that time its event loop
 * was busy (100: the main thread never waited for I/O); with `--by-turn`, the latency of each
 * client's first, second, … turn apart (the first wave, all clients sending at once, is the
 * slowest); with `--think-ms N`, each client pauses a random 0–2N ms (N on average) before each
 * of its turns, first included, as people do, instead of sending the next as soon as one ends
 * (the target is measured without); then `plumb serve --demo` time to ready.
 * `PLUMB_BENCH_PROFILE=DIR` writes the server's CPU profile there; `PLUMB_BENCH_SERVER_FLAGS`
 * passes Node flags to the server process (`--trace-gc`, `--max-semi-space-size=…`).
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { Agent, request as httpRequest } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import type { EventLoopUtilization } from 'node:perf_hooks';
import { join } from 'node:path';
import WebSocket from 'ws';
import { machineLine, option, printTable, startingGate, summarize } from './harness.js';
import type { Benchmark } from './harness.js';
import { runClusterBench } from './serve-cluster.js';
import { runCpuBench } from './serve-cpu.js';

const root = join(import.meta.dirname, '..');

const script = {
  model: 'scripted-bench',
  completions: [
    { repeat: true, when: { toolName: 'query' }, text: ['Here ', 'are ', 'the ', 'materials ', 'the ', 'shop ', 'uses, ', 'with ', 'their ', 'densities.'], usage: { inputTokens: 40, outputTokens: 10 } },
    { repeat: true, toolCalls: [{ name: 'query', arguments: { manager: 'Material', fields: ['name', 'density'], limit: 5 } }], usage: { inputTokens: 20, outputTokens: 5 } },
  ],
};

// ---- the server process --------------------------------------------------------------------

async function serverMain(dir: string): Promise<void> {
  const { createDemoApp } = await import('../src/demo/index.js');
  const { createChatStack, createServer, parseConfig } = await import('../src/server/index.js');
  const app = await createDemoApp({ path: ':memory:' });
  const config = parseConfig({ store: join(dir, 'chat.sqlite'), provider: `scripted:${join(dir, 'script.json')}`, router: 'off', rateLimit: { requests: null, sessions: null }, websocketMaxBufferedBytes: 4 * 1024 * 1024 });
  const stack = await createChatStack({ app, config });
  const server = await createServer({ app, engine: stack.engine, settings: config, console: false });
  const url = await server.listen({ port: 0, host: '127.0.0.1' });
  let peak = process.memoryUsage.rss();
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 50);
  const send = (message: unknown): void => void process.send?.(message);
  send({ type: 'ready', url });
  await new Promise<void>((resolve) => {
    process.on('message', (command: string) => {
      const rss = process.memoryUsage.rss();
      peak = Math.max(peak, rss);
      if (command === 'rss') send({ type: 'rss', rss, peak });
      else if (command === 'cpu') send({ type: 'cpu', cpu: process.cpuUsage(), loop: performance.eventLoopUtilization() });
      else if (command === 'reset') {
        globalThis.gc?.();
        peak = process.memoryUsage.rss();
        send({ type: 'rss', rss: peak, peak });
      } else if (command === 'stop') resolve();
    });
  });
  clearInterval(sampler);
  await server.close();
  await stack.close();
  await app.close();
  process.disconnect?.();
}

// ---- the load process ----------------------------------------------------------------------

interface ServerMessage {
  readonly type: string;
  readonly url?: string;
  readonly rss?: number;
  readonly peak?: number;
  readonly cpu?: NodeJS.CpuUsage;
  readonly loop?: EventLoopUtilization;
}

class ServerProcess {
  readonly #child: ChildProcess;
  readonly #waiting: ((message: ServerMessage) => void)[] = [];
  url = '';
  constructor(dir: string) {
    const profile = process.env.PLUMB_BENCH_PROFILE === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${process.env.PLUMB_BENCH_PROFILE}`];
    const flags = process.env.PLUMB_BENCH_SERVER_FLAGS?.split(' ').filter((flag) => flag !== '') ?? [];
    this.#child = spawn(process.execPath, ['--expose-gc', ...profile, ...flags, '--import', 'tsx', join(root, 'bench/run.ts'), 'serve', '--server', dir], { cwd: root, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    this.#child.on('message', (message: { type: string }) => this.#waiting.shift()?.(message));
  }
  next(): Promise<ServerMessage> {
    return new Promise((resolve) => this.#waiting.push(resolve));
  }
  async ready(): Promise<void> {
    const message = await this.next();
    this.url = message.url ?? '';
  }
  /** The server's CPU time so far, in µs (user + system), and its event loop's busy and idle time so far. */
  async cpu(): Promise<{ cpu: number; loop: EventLoopUtilization | undefined }> {
    const reply = this.next();
    this.#child.send('cpu');
    const message = await reply;
    return { cpu: message.cpu === undefined ? 0 : message.cpu.user + message.cpu.system, loop: message.loop };
  }
  async rss(command: 'rss' | 'reset'): Promise<{ rss: number; peak: number }> {
    const reply = this.next();
    this.#child.send(command);
    const message = await reply;
    return { rss: message.rss ?? 0, peak: message.peak ?? 0 };
  }
  async stop(): Promise<void> {
    const exited = new Promise((resolve) => this.#child.once('exit', resolve));
    this.#child.send('stop');
    await exited;
  }
}

/** How each client behaves: how many turns, and the mean pause before each (0: none, back to back). */
interface ClientPlan {
  readonly turns: number;
  readonly thinkMs: number;
}

/** A person's pause before a turn: uniform over 0–2× the mean, so that clients do not move in step. */
function think(plan: ClientPlan): Promise<void> | undefined {
  return plan.thinkMs > 0 ? new Promise((resolve) => setTimeout(resolve, Math.random() * 2 * plan.thinkMs)) : undefined;
}

/** What the clients of one run measured: each turn's latency with the client's turn number (0-based). */
interface Measured {
  readonly latencies: number[];
  readonly turnNumbers: number[];
  errors: number;
  /** Error codes the clients met (their `error` events, else the HTTP status or `closed`), with how often. */
  codes?: Map<string, number>;
}

function countCode(result: Measured, code: string): void {
  result.codes ??= new Map();
  result.codes.set(code, (result.codes.get(code) ?? 0) + 1);
}

interface RunResult extends Measured {
  readonly wallMs: number;
}

/** One request over the client's own keep-alive connection: status, headers and the whole body. */
function post(agent: Agent, url: URL, headers: Record<string, string>, body?: string): Promise<{ status: number; cookies: string[]; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { agent, method: body === undefined ? 'GET' : 'POST', headers }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, cookies: response.headers['set-cookie'] ?? [], body: text }));
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(body);
  });
}

/** A browser's cookie jar for one site: keeps what each response sets and sends it all back. */
class CookieJar {
  readonly #cookies = new Map<string, string>();
  take(setCookies: readonly string[]): void {
    for (const line of setCookies) {
      const pair = line.split(';', 1)[0] ?? '';
      const eq = pair.indexOf('=');
      if (eq > 0) this.#cookies.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
  }
  header(): string {
    return [...this.#cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

/**
 * A browser-like SSE client: it opens its connection and takes its CSRF token first (as the
 * console does on load; the WebSocket client likewise connects first), waits for every client to
 * be connected, then posts its turns one after another over that connection, keeping the cookies
 * each response sets and, as the console does, naming the thread its first turn opened (the
 * WebSocket server remembers a socket's thread itself).
 */
async function sseClient(base: string, plan: ClientPlan, result: Measured, arrive: () => Promise<void>): Promise<void> {
  const { turns } = plan;
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  let arrived = false;
  try {
    const jar = new CookieJar();
    const issued = await post(agent, new URL('/chat/csrf/', base), {});
    jar.take(issued.cookies);
    const token = (JSON.parse(issued.body) as { token: string }).token;
    arrived = true;
    await arrive();
    const stream = new URL('/chat/stream/', base);
    let thread: string | undefined;
    for (let i = 0; i < turns; i++) {
      await think(plan);
      const start = performance.now();
      try {
        const response = await post(agent, stream, { 'content-type': 'application/json', 'x-csrf-token': token, cookie: jar.header() }, JSON.stringify({ text: `which materials? ${i}`, ...(thread === undefined ? {} : { thread }) }));
        jar.take(response.cookies);
        thread ??= /"thread_id":"([^"]+)"/.exec(response.body)?.[1];
        if (response.status !== 200 || !response.body.includes('"type":"done"') || response.body.includes('"type":"error"')) {
          result.errors++;
          countCode(result, /"type":"error"[^}]*"code":"([a-z_]+)"/.exec(response.body)?.[1] ?? /"code":"([a-z_]+)"/.exec(response.body)?.[1] ?? `http ${response.status}`);
        }
        else {
          result.latencies.push(performance.now() - start);
          result.turnNumbers.push(i);
        }
      } catch (error) {
        result.errors++;
        countCode(result, (error as NodeJS.ErrnoException).code ?? 'request failed');
      }
    }
  } catch {
    result.errors += turns;
    if (!arrived) await arrive();
  } finally {
    agent.destroy();
  }
}

async function wsClient(base: string, plan: ClientPlan, result: Measured, arrive: () => Promise<void>): Promise<void> {
  const { turns } = plan;
  const socket = new WebSocket(`${base.replace('http', 'ws')}/chat/`, { origin: base });
  try {
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
  } catch {
    result.errors += turns;
    await arrive();
    return;
  }
  await arrive();
  let settle: ((ok: boolean) => void) | undefined;
  socket.on('message', (data: Buffer) => {
    const text = data.toString('utf8');
    if (text.includes('"type":"done"')) settle?.(true);
    else if (text.includes('"type":"error"')) {
      countCode(result, /"code":"([a-z_]+)"/.exec(text)?.[1] ?? 'error');
      settle?.(false);
    }
  });
  socket.once('close', (code: number) => {
    if (settle !== undefined) countCode(result, `closed ${code}`);
    settle?.(false);
  });
  for (let i = 0; i < turns; i++) {
    await think(plan);
    const start = performance.now();
    const ok = await new Promise<boolean>((resolve) => {
      settle = resolve;
      socket.send(JSON.stringify({ type: 'message', text: `which materials? ${i}` }));
    });
    settle = undefined;
    if (ok) {
      result.latencies.push(performance.now() - start);
      result.turnNumbers.push(i);
    } else result.errors++;
  }
  socket.close();
}

async function runLoad(server: ServerProcess, transport: 'sse' | 'websocket', clients: number, plan: ClientPlan): Promise<RunResult & { peakMb: number; perConnectionKb: number; serverCpu: number; serverLoopBusy: number; loadCpu: number }> {
  const before = await server.rss('reset');
  const result: Measured = { latencies: [], turnNumbers: [], errors: 0 };
  // Every client connects first; the turns start together once all are connected, so that the
  // measured run has all N clients at once (and connecting is not counted as turn time).
  const { arrive, everyone, release } = startingGate(clients);
  const running = Promise.all(Array.from({ length: clients }, () => (transport === 'sse' ? sseClient(server.url, plan, result, arrive) : wsClient(server.url, plan, result, arrive))));
  await everyone;
  const serverBefore = await server.cpu();
  const loadCpuBefore = process.cpuUsage();
  const start = performance.now();
  release();
  await running;
  const wallMs = performance.now() - start;
  const loadCpu = process.cpuUsage(loadCpuBefore);
  const serverAfter = await server.cpu();
  const after = await server.rss('rss');
  const busy = (serverAfter.loop?.active ?? 0) - (serverBefore.loop?.active ?? 0);
  const idle = (serverAfter.loop?.idle ?? 0) - (serverBefore.loop?.idle ?? 0);
  return {
    ...result,
    wallMs,
    peakMb: after.peak / 2 ** 20,
    perConnectionKb: Math.max(0, after.peak - before.rss) / clients / 1024,
    // Shares of one core over the measured turns: 100 is one core busy all the time.
    serverCpu: (serverAfter.cpu - serverBefore.cpu) / 10 / wallMs,
    // The share of the time the server's main thread was running code rather than waiting for I/O.
    serverLoopBusy: busy + idle === 0 ? 0 : (100 * busy) / (busy + idle),
    loadCpu: (loadCpu.user + loadCpu.system) / 10 / wallMs,
  };
}

async function timeToReady(dir: string): Promise<{ reported: number; wall: number }> {
  writeFileSync(join(dir, 'ready.config.json'), JSON.stringify({ store: join(dir, 'ready.sqlite') }));
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'src/cli/main.ts'), 'serve', '--demo', '--db', join(dir, 'demo.sqlite'), '--port', '0', '--config', join(dir, 'ready.config.json')], { cwd: root });
  const reported = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /ready in (\d+) ms/.exec(out);
      if (match?.[1] !== undefined) resolve(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`serve exited (${code}): ${out}`)));
  });
  const wall = performance.now() - started;
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  return { reported, wall };
}

const benchmark: Benchmark = {
  name: 'serve',
  async run(args) {
    if (args[0] === '--server') return serverMain(args[1]!);
    if (args.includes('--workers') || args.includes('--store') || args.includes('--cpu')) {
      const dir = mkdtempSync(join(tmpdir(), 'plumb-bench-cluster-'));
      try {
        writeFileSync(join(dir, 'script.json'), JSON.stringify(script));
        const load = (await import('node:os')).loadavg().map((value) => value.toFixed(2)).join(' ');
        console.log(`${machineLine()} · load average before the run ${load} · server, PostgreSQL, Redis and the load generator on the same cores · scripted provider: 1 tool call + 10 text chunks per turn · clients send each turn as soon as the last ends`);
        const shared = {
          dir,
          workers: option(args, '--workers', '1,2').split(',').map(Number),
          stores: option(args, '--store', 'sqlite,postgres').split(',') as ('sqlite' | 'postgres')[],
          clients: Number(option(args, '--clients', '1000')),
          postgresUrl: process.env.PLUMB_BENCH_POSTGRES_URL ?? process.env.PLUMB_TEST_POSTGRES_URL,
          redisUrl: process.env.PLUMB_BENCH_REDIS_URL ?? process.env.PLUMB_TEST_REDIS_URL,
          ws: wsClient,
        };
        if (args.includes('--cpu')) await runCpuBench({ ...shared, turns: Number(option(args, '--turns', '10')) });
        else await runClusterBench({ ...shared, turns: Number(option(args, '--turns', '5')), idle: Number(option(args, '--idle', '10000')), sse: sseClient });
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
      return;
    }
    const clientCounts = option(args, '--clients', '200,500,1000').split(',').map(Number);
    const turns = Number(option(args, '--turns', '5'));
    const thinkMs = Number(option(args, '--think-ms', '0'));
    if (!Number.isFinite(thinkMs) || thinkMs < 0) throw new Error(`--think-ms must be a number of milliseconds ≥ 0, got '${option(args, '--think-ms', '')}'`);
    const transports = option(args, '--transports', 'sse,websocket').split(',') as ('sse' | 'websocket')[];
    const dir = mkdtempSync(join(tmpdir(), 'plumb-bench-serve-'));
    try {
      writeFileSync(join(dir, 'script.json'), JSON.stringify(script));
      const rows: (string | number)[][] = [];
      const turnRows: (string | number)[][] = [];
      for (const transport of transports) {
        for (const clients of clientCounts) {
          const server = new ServerProcess(dir);
          await server.ready();
          await runLoad(server, transport, 100, { turns: 5, thinkMs: 0 }); // warm-up: the JIT and the heap settle before the measured run
          const result = await runLoad(server, transport, clients, { turns, thinkMs });
          await server.stop();
          rmSync(join(dir, 'chat.sqlite'), { force: true });
          const latency = summarize(result.latencies);
          rows.push([transport, String(clients), String(clients * turns), (result.latencies.length / result.wallMs) * 1000, latency.median, latency.p99, String(result.errors), result.peakMb, result.perConnectionKb, result.serverCpu, result.serverLoopBusy, result.loadCpu]);
          for (let turn = 0; turn < turns; turn++) {
            const own = summarize(result.latencies.filter((_, index) => result.turnNumbers[index] === turn));
            turnRows.push([transport, String(clients), String(turn + 1), own.min, own.median, own.p99]);
          }
        }
      }
      console.log(`\n${machineLine()} · server and load in separate processes on loopback · scripted provider: 1 tool call + 10 text chunks per turn · ${thinkMs > 0 ? `clients pause 0–${2 * thinkMs} ms (mean ${thinkMs}) before each turn` : 'clients send each turn as soon as the last ends'}`);
      printTable('Chat server under concurrent clients', ['transport', 'clients', 'turns', 'turns/s', 'p50 ms', 'p99 ms', 'errors', 'server peak RSS MiB', 'RSS per connection KiB', 'server CPU %', 'server loop busy %', 'load CPU %'], rows);
      if (args.includes('--by-turn')) printTable("Latency by each client's turn number (all clients start together)", ['transport', 'clients', 'turn', 'fastest ms', 'p50 ms', 'p99 ms'], turnRows);
      const ready = await timeToReady(dir);
      printTable('plumb serve --demo time to ready', ['measure', 'ms'], [
        ['reported by serve (config, app, engine, listen)', ready.reported],
        ['wall clock from spawn (includes node + tsx start)', ready.wall],
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};

export default benchmark;
