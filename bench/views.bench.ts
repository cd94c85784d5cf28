/**
 * `npm run bench -- views [--observers 100] [--control 1] [--coalesce-ms 25] [--runs 3] [--seconds 8] [--transports sse,websocket] [--gap 1000] [--resumes 15] [--turns 200] [--samples 9]`
 *
 * Live thread views (docs/protocol.md, "Live thread views") against a real server: the demo app
 * served as `plumb serve` serves it (createChatStack + createServer with `following`, a SQLite
 * journal, local thread notices, the scripted provider), in its own process; this process holds
 * the observers and the one client that keeps the thread busy. Each run is a fresh server.
 *
 * (a) N observers of one busy thread, over SSE (`GET …/threads/:id/view/`) and over WebSocket
 *     (`subscribe` frames, one socket each). One writer sends turns back to back (a tool call,
 *     then 40 text chunks 5 ms apart: a draft item every 20 ms). Reported: events (item + turn)
 *     delivered per second to all observers together; observer lag (drafts and other events
 *     apart); server heap (after GC) and RSS per idle observer (connected to a quiet thread, its
 *     `view` received; a WebSocket's socket and its subscription apart); and the server's peak
 *     RSS rise over the busy phase, with the observers and, first, with the writer alone. Then
 *     the control: `--control` (1) observers of the same thread, on the same server, right after,
 *     so that what the machine's load does to the lag shows apart from what 100 observers do.
 *     **Lag** of one event at one observer = the moment this process read it off the observer's
 *     connection (`performance.timeOrigin + performance.now()`, taken once per chunk read) − the
 *     moment the server announced the commit of that item (or turn status) on its `ThreadEvents`
 *     (the notice the view's follower wakes on, published right after the journal's commit),
 *     on the same clock, corrected by the two processes' clock offset measured over IPC (the
 *     ping with the shortest round trip of 50; its half round trip bounds the error). It includes
 *     the coalescing of drafts (`viewCoalesceMs`, 25), encoding, the socket and this process's
 *     own event loop (which reads 100 connections). Percentiles are over every (event, observer).
 * (b) Resume after a gap: a thread of more than `gap` items; an observer comes back with the seq
 *     `gap` items before the end (SSE with `Last-Event-ID`, on a new connection; WebSocket with a
 *     `subscribe` frame carrying `after`, on an open socket); time from the request to the `view`
 *     event that follows the replayed items (every one of them checked to have arrived).
 * (c) Compaction of a 200-turn thread (each turn a tool call with a ~2.3 KB result and a short
 *     answer: past the 90% threshold of the default 128k window), in this process: the 201st turn on a fresh engine over a
 *     copy of the SQLite journal, with the default 128k window (it compacts: its summary rounds
 *     come from the scripted provider) and, on another copy, with a window too large to compact;
 *     the compaction step is the difference, and the span from the first summary request to the
 *     summary's commit is measured alone too.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import type { ClientRequest, IncomingMessage } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { EventLoopUtilization, IntervalHistogram } from 'node:perf_hooks';
import { join } from 'node:path';
import WebSocket from 'ws';
import { z } from 'zod';
import { collect, createEngine } from '../src/engine/index.js';
import type { Provider } from '../src/providers/index.js';
import { createScriptedProvider } from '../src/providers/index.js';
import type { ScriptInput } from '../src/providers/index.js';
import { openSqliteStore } from '../src/store/index.js';
import type { Store } from '../src/store/index.js';
import { defineTool } from '../src/tools/index.js';
import { machineLine, option, printTable, summarize } from './harness.js';
import type { Benchmark } from './harness.js';

const root = join(import.meta.dirname, '..');
const token = 'Bearer views-bench';
/** Wall clock in ms with sub-ms resolution, comparable between processes of one machine. */
const now = (): number => performance.timeOrigin + performance.now();
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

const busyChunks = Array.from({ length: 40 }, (_, i) => `word${i} `);
const script: ScriptInput = {
  model: 'scripted-views',
  completions: [
    { repeat: true, when: { toolName: 'query', userTextContains: 'busy' }, text: busyChunks, chunkDelayMs: 5 },
    { repeat: true, when: { userTextContains: 'busy' }, toolCalls: [{ name: 'query', arguments: { manager: 'Material', fields: ['name', 'density'], limit: 5 } }] },
    { repeat: true, when: { toolName: 'query' }, text: ['Filled ', 'in.'] },
    { repeat: true, toolCalls: [{ name: 'query', arguments: { manager: 'Material', fields: ['name'], limit: 2 } }] },
  ],
};

// ---- the server process --------------------------------------------------------------------

interface Command {
  readonly id: number;
  readonly type: 'mem' | 'clock' | 'record' | 'recorded' | 'peak' | 'stop';
  readonly thread?: string;
}

async function serverMain(dir: string, coalesceMs: number): Promise<void> {
  const { createDemoApp, demoActor } = await import('../src/demo/index.js');
  const { createChatStack, createLocalThreadEvents, createServer, parseConfig } = await import('../src/server/index.js');
  const app = await createDemoApp({ path: ':memory:' });
  const events = createLocalThreadEvents();
  const config = parseConfig({ store: join(dir, 'chat.sqlite'), provider: `scripted:${join(dir, 'script.json')}`, router: 'off', rateLimit: { requests: null }, websocketMaxBufferedBytes: 4 * 1024 * 1024, viewCoalesceMs: coalesceMs });
  const stack = await createChatStack({ app, config, events });
  const alice = demoActor('alice')!;
  const server = await createServer({
    app,
    engine: stack.engine,
    settings: config,
    console: false,
    following: { store: stack.store, events },
    authenticate: (request) => (request.headers.authorization === token ? { actor: alice, credential: 'token' } : null),
  });
  const url = await server.listen({ port: 0, host: '127.0.0.1' });
  let peak = process.memoryUsage.rss();
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 20);
  // Commit times: the moment each notice of the recorded thread is published (after its commit).
  let recording: (() => void) | undefined;
  let committed = new Map<string, number>();
  // While recording: the event loop's delay, its utilization and the CPU time the server used.
  let delay: IntervalHistogram | undefined;
  let loopFrom: EventLoopUtilization | undefined;
  let cpuFrom: NodeJS.CpuUsage | undefined;
  let recordFrom = 0;
  const send = (message: unknown): void => void process.send?.(message);
  send({ type: 'ready', url });
  await new Promise<void>((resolve) => {
    process.on('message', (command: Command) => {
      const reply = (body: Record<string, unknown>): void => send({ id: command.id, ...body });
      if (command.type === 'clock') reply({ at: now() });
      else if (command.type === 'mem') {
        globalThis.gc?.();
        globalThis.gc?.();
        reply({ heap: process.memoryUsage().heapUsed, rss: process.memoryUsage.rss() });
      } else if (command.type === 'peak') {
        const rss = process.memoryUsage.rss();
        reply({ peak: Math.max(peak, rss), rss });
        peak = rss;
      } else if (command.type === 'record') {
        committed = new Map();
        delay = monitorEventLoopDelay({ resolution: 1 });
        delay.enable();
        loopFrom = performance.eventLoopUtilization();
        cpuFrom = process.cpuUsage();
        recordFrom = performance.now();
        recording = events.subscribe(command.thread!, (notice) => {
          const at = now();
          for (const item of notice.items ?? []) if (!committed.has(`i:${item.ordinal}`)) committed.set(`i:${item.ordinal}`, at);
          if (notice.turnId !== undefined && notice.turnStatus !== undefined) {
            const key = `t:${notice.turnId}:${notice.turnStatus}`;
            if (!committed.has(key)) committed.set(key, at);
          }
        });
        reply({});
      } else if (command.type === 'recorded') {
        recording?.();
        recording = undefined;
        delay?.disable();
        const cpu = process.cpuUsage(cpuFrom);
        reply({
          committed: [...committed],
          loopDelayP99: (delay?.percentile(99) ?? 0) / 1e6,
          loopDelayMax: (delay?.max ?? 0) / 1e6,
          loopBusy: 100 * performance.eventLoopUtilization(loopFrom).utilization,
          cpu: (cpu.user + cpu.system) / 10 / (performance.now() - recordFrom),
        });
      } else if (command.type === 'stop') {
        reply({});
        resolve();
      }
    });
  });
  clearInterval(sampler);
  await server.close();
  await stack.close();
  await events.close();
  await app.close();
  process.disconnect?.();
}

// ---- this process: the server's handle -------------------------------------------------------

class ServerProcess {
  readonly #child: ChildProcess;
  readonly #waiting = new Map<number, (message: Record<string, unknown>) => void>();
  #ready: Promise<string>;
  #next = 0;
  url = '';

  constructor(dir: string, coalesceMs: number) {
    this.#child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', join(root, 'bench/run.ts'), 'views', '--server', dir, String(coalesceMs)], { cwd: root, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    let started: (url: string) => void = () => undefined;
    this.#ready = new Promise((resolve) => (started = resolve));
    this.#child.on('message', (message: Record<string, unknown>) => {
      if (message.type === 'ready') started(String(message.url));
      else this.#waiting.get(Number(message.id))?.(message);
    });
  }

  async ready(): Promise<void> {
    this.url = await this.#ready;
  }

  call<T extends Record<string, unknown>>(type: Command['type'], thread?: string): Promise<T> {
    const id = ++this.#next;
    return new Promise((resolve) => {
      this.#waiting.set(id, (message) => {
        this.#waiting.delete(id);
        resolve(message as T);
      });
      this.#child.send({ id, type, ...(thread === undefined ? {} : { thread }) } satisfies Command);
    });
  }

  /** The server's clock less this one's, from the ping with the shortest round trip. */
  async clockOffset(): Promise<{ offset: number; rtt: number }> {
    let best = { offset: 0, rtt: Infinity };
    for (let i = 0; i < 50; i++) {
      const sent = now();
      const { at } = await this.call<{ at: number }>('clock');
      const back = now();
      if (back - sent < best.rtt) best = { offset: at - (sent + back) / 2, rtt: back - sent };
    }
    return best;
  }

  async memory(): Promise<{ heap: number; rss: number }> {
    return this.call<{ heap: number; rss: number }>('mem');
  }

  async stop(): Promise<void> {
    const exited = new Promise((resolve) => this.#child.once('exit', resolve));
    await this.call('stop');
    await exited;
  }
}

// ---- clients --------------------------------------------------------------------------------

/** One streamed turn over SSE on the busy thread (or a new one); resolves with its thread id once `done` arrives. */
function turn(base: string, text: string, thread?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify({ text, ...(thread === undefined ? { new_thread: true } : { thread }) });
    const request = httpRequest(new URL('/chat/stream/', base), { method: 'POST', headers: { authorization: token, 'content-type': 'application/json' } }, (response) => {
      let all = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (all += chunk));
      response.on('end', () => {
        const id = /"thread_id":"([^"]+)"/.exec(all)?.[1];
        if (id === undefined || !all.includes('"type":"done"')) reject(new Error(`turn failed: ${all.slice(0, 300)}`));
        else resolve(id);
      });
    });
    request.on('error', reject);
    request.end(body);
  });
}

async function lastOrdinal(base: string, thread: string): Promise<number> {
  const response = await fetch(new URL(`/chat/threads/${thread}/items/?limit=1`, base), { headers: { authorization: token } });
  const page = (await response.json()) as { items: { ordinal: number }[] };
  return page.items[0]?.ordinal ?? 0;
}

/** What one observer saw: each event's key (`i:<ordinal>`, `d:<ordinal>` for a draft, `t:<turn>:<status>`) with when it arrived here. */
class Seen {
  readonly keys: string[] = [];
  readonly times: number[] = [];
  /** The item's kind, or `turn <status>`: the lag by kind of event. */
  readonly kinds: string[] = [];
  views = 0;
  resubscribes = 0;
  items = 0;
  #viewWaiters: { readonly count: number; readonly resolve: () => void }[] = [];

  take(json: string, at: number): void {
    const head = /^\{"type":"(\w+)","seq":"(\d+)"/.exec(json);
    if (head === null) return;
    const type = head[1];
    if (type === 'item') {
      this.items++;
      const kind = /"kind":"(\w+)"/.exec(json)?.[1] ?? '?';
      this.keys.push(`${kind === 'text_draft' ? 'd' : 'i'}:${head[2]}`);
      this.kinds.push(kind);
      this.times.push(at);
    } else if (type === 'turn') {
      const event = JSON.parse(json) as { turn_id: string; status: string };
      this.keys.push(`t:${event.turn_id}:${event.status}`);
      this.kinds.push(`turn ${event.status}`);
      this.times.push(at);
    } else if (type === 'view') {
      this.views++;
      this.#viewWaiters = this.#viewWaiters.filter((waiter) => {
        if (this.views < waiter.count) return true;
        waiter.resolve();
        return false;
      });
    } else if (type === 'resubscribe') this.resubscribes++;
  }

  /** Resolves at the next `view` event (or at once when `count` views already came). */
  view(count = 1): Promise<void> {
    if (this.views >= count) return Promise.resolve();
    return new Promise((resolve) => this.#viewWaiters.push({ count, resolve }));
  }

  clear(): void {
    this.keys.length = 0;
    this.times.length = 0;
    this.kinds.length = 0;
    this.items = 0;
  }
}

interface Observer {
  readonly seen: Seen;
  close(): void;
}

/** A view over SSE: `GET …/view/` (with `Last-Event-ID` to resume), parsed as it arrives. */
function sseObserver(base: string, thread: string, after?: number): Promise<Observer> {
  const seen = new Seen();
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { authorization: token, accept: 'text/event-stream', ...(after === undefined ? {} : { 'last-event-id': String(after) }) };
    const request: ClientRequest = httpRequest(new URL(`/chat/threads/${thread}/view/`, base), { headers, agent: false }, (response: IncomingMessage) => {
      if (response.statusCode !== 200) {
        reject(new Error(`view answered ${response.statusCode}`));
        return;
      }
      response.setEncoding('utf8');
      let buffer = '';
      response.on('data', (chunk: string) => {
        const at = now();
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = block.indexOf('data: ');
          if (data >= 0) seen.take(block.slice(data + 6), at);
        }
      });
      response.on('error', () => undefined);
      resolve({ seen, close: () => request.destroy() });
    });
    request.on('error', reject);
    request.end();
  });
}

/** A WebSocket with live views: each `subscribe` adds one; every frame with a seq is theirs. */
class SocketObserver implements Observer {
  readonly seen = new Seen();
  readonly socket: WebSocket;
  readonly opened: Promise<void>;

  constructor(base: string) {
    this.socket = new WebSocket(`${base.replace('http', 'ws')}/chat/`, { origin: base, headers: { authorization: token } });
    this.socket.on('message', (data: Buffer) => this.seen.take(data.toString('utf8'), now()));
    this.opened = new Promise((resolve, reject) => {
      this.socket.once('open', () => resolve());
      this.socket.once('error', reject);
    });
  }

  subscribe(thread: string, after?: number): void {
    this.socket.send(JSON.stringify({ type: 'subscribe', thread, ...(after === undefined ? {} : { after: String(after) }) }));
  }

  unsubscribe(thread: string): void {
    this.socket.send(JSON.stringify({ type: 'unsubscribe', thread }));
  }

  close(): void {
    this.socket.close();
  }
}

// ---- (a) observers of a busy thread ---------------------------------------------------------

interface BusyResult {
  readonly transport: string;
  readonly observers: number;
  readonly eventsPerSecond: number;
  readonly committedPerSecond: number;
  readonly lagP50: number;
  readonly lagP99: number;
  readonly lagMax: number;
  /** p99 of the drafts alone (coalesced for viewCoalesceMs) and of every other event (sent at the end of their tick). */
  readonly draftLagP99: number;
  readonly otherLagP99: number;
  readonly missed: number;
  readonly resubscribes: number;
  /** Over the busy phase: p99 event-loop delay of the server and of this process (ms), the server's loop busy share and CPU (% of one core), the 1-minute load average after it. */
  readonly serverLoopP99: number;
  readonly serverLoopMax: number;
  readonly observersLoopP99: number;
  readonly observersLoopMax: number;
  readonly serverLoopBusy: number;
  readonly serverCpu: number;
  readonly load: number;
  /** Lag p99 by kind of event, with how many (event, observer) pairs. */
  readonly byKind: Readonly<Record<string, { readonly p99: number; readonly count: number }>>;
  readonly idleHeapKb: number;
  readonly idleRssKb: number;
  readonly socketHeapKb?: number;
  readonly socketRssKb?: number;
  /** Peak RSS rise of the whole server over a busy phase: the writer alone, then with the observers. MiB. */
  readonly aloneRiseMb: number;
  readonly observedRiseMb: number;
}

/** One client keeping the thread busy: turns back to back for `seconds`. */
async function drive(base: string, thread: string, seconds: number): Promise<{ start: number; written: number }> {
  const start = now();
  const until = start + seconds * 1000;
  for (let turns = 0; now() < until; turns++) await turn(base, `busy turn ${turns}`, thread);
  return { start, written: now() };
}

async function observersRun(server: ServerProcess, transport: 'sse' | 'websocket', count: number, seconds: number, offset: number, alonePhase = true): Promise<BusyResult> {
  const base = server.url;
  const thread = await turn(base, 'busy: start the thread');
  for (let i = 0; i < 3; i++) await turn(base, `busy warm-up ${i}`, thread);
  // The same busy phase without observers first: what the turns alone add to the server's RSS.
  const aloneFrom = await server.call<{ rss: number }>('peak');
  if (alonePhase) await drive(base, thread, seconds);
  const alone = await server.call<{ peak: number }>('peak');
  await sleep(200);
  const before = await server.memory();
  let socketMemory: { heap: number; rss: number } | undefined;
  let observers: Observer[];
  if (transport === 'sse') {
    observers = await Promise.all(Array.from({ length: count }, () => sseObserver(base, thread)));
  } else {
    const sockets = Array.from({ length: count }, () => new SocketObserver(base));
    await Promise.all(sockets.map((socket) => socket.opened));
    await sleep(300);
    socketMemory = await server.memory();
    for (const socket of sockets) socket.subscribe(thread);
    observers = sockets;
  }
  await Promise.all(observers.map((observer) => observer.seen.view()));
  await sleep(500);
  const idle = await server.memory();
  for (const observer of observers) observer.seen.clear();

  const observedFrom = await server.call<{ rss: number }>('peak');
  await server.call('record', thread);
  const ownDelay = monitorEventLoopDelay({ resolution: 1 });
  ownDelay.enable();
  const { start, written } = await drive(base, thread, seconds);
  await sleep(500);
  ownDelay.disable();
  const { committed, loopDelayP99, loopDelayMax, loopBusy, cpu } = await server.call<{ committed: [string, number][]; loopDelayP99: number; loopDelayMax: number; loopBusy: number; cpu: number }>('recorded');
  const { peak } = await server.call<{ peak: number }>('peak');
  const commitAt = new Map(committed);
  const lags: number[] = [];
  const draftLags: number[] = [];
  const otherLags: number[] = [];
  const kindLags = new Map<string, number[]>();
  let delivered = 0;
  let last = start;
  let missed = 0;
  let resubscribes = 0;
  for (const observer of observers) {
    const { keys, times, kinds } = observer.seen;
    delivered += keys.length;
    resubscribes += observer.seen.resubscribes;
    const got = new Set<string>();
    for (let index = 0; index < keys.length; index++) {
      const key = keys[index]!;
      const draft = key.startsWith('d:');
      const committedKey = draft ? `i:${key.slice(2)}` : key;
      const at = commitAt.get(committedKey);
      if (at === undefined) continue;
      got.add(committedKey);
      const lag = times[index]! + offset - at;
      lags.push(lag);
      (draft ? draftLags : otherLags).push(lag);
      const kind = kinds[index]!;
      if (!kindLags.has(kind)) kindLags.set(kind, []);
      kindLags.get(kind)!.push(lag);
      last = Math.max(last, times[index]!);
    }
    for (const key of commitAt.keys()) if (!got.has(key)) missed++;
  }
  for (const observer of observers) observer.close();
  await sleep(300);
  const lag = summarize(lags);
  return {
    transport,
    observers: count,
    eventsPerSecond: (delivered / (last - start)) * 1000,
    committedPerSecond: (commitAt.size / (written - start)) * 1000,
    lagP50: lag.median,
    lagP99: lag.p99,
    lagMax: lag.max,
    draftLagP99: summarize(draftLags).p99,
    otherLagP99: summarize(otherLags).p99,
    missed,
    resubscribes,
    serverLoopP99: loopDelayP99,
    serverLoopMax: loopDelayMax,
    observersLoopP99: ownDelay.percentile(99) / 1e6,
    observersLoopMax: ownDelay.max / 1e6,
    serverLoopBusy: loopBusy,
    serverCpu: cpu,
    load: loadavg()[0] ?? NaN,
    byKind: Object.fromEntries([...kindLags].map(([kind, values]) => [kind, { p99: summarize(values).p99, count: values.length }])),
    idleHeapKb: (idle.heap - before.heap) / count / 1024,
    idleRssKb: (idle.rss - before.rss) / count / 1024,
    ...(socketMemory === undefined ? {} : { socketHeapKb: (socketMemory.heap - before.heap) / count / 1024, socketRssKb: (socketMemory.rss - before.rss) / count / 1024 }),
    aloneRiseMb: (alone.peak - aloneFrom.rss) / 2 ** 20,
    observedRiseMb: (peak - observedFrom.rss) / 2 ** 20,
  };
}

// ---- (b) resume after a gap -----------------------------------------------------------------

async function resumeRun(server: ServerProcess, gap: number, resumes: number): Promise<{ sse: number[]; websocket: number[] }> {
  const base = server.url;
  const thread = await turn(base, 'fill the thread');
  let last = await lastOrdinal(base, thread);
  while (last < gap + 10) {
    for (let i = 0; i < 20; i++) await turn(base, `fill ${last} ${i}`, thread);
    last = await lastOrdinal(base, thread);
  }
  const after = last - gap;
  const check = (seen: Seen): void => {
    if (seen.items !== gap || seen.views !== 1) throw new Error(`resume: ${seen.items} items and ${seen.views} views arrived, expected ${gap} and 1`);
  };
  const sse: number[] = [];
  for (let i = 0; i < resumes + 1; i++) {
    const started = performance.now();
    const observer = await sseObserver(base, thread, after);
    await observer.seen.view();
    const took = performance.now() - started;
    check(observer.seen);
    observer.close();
    if (i > 0) sse.push(took);
  }
  const websocket: number[] = [];
  const socket = new SocketObserver(base);
  await socket.opened;
  for (let i = 0; i < resumes + 1; i++) {
    socket.seen.clear();
    socket.seen.views = 0;
    const started = performance.now();
    socket.subscribe(thread, after);
    await socket.seen.view();
    const took = performance.now() - started;
    check(socket.seen);
    socket.unsubscribe(thread);
    await sleep(20);
    if (i > 0) websocket.push(took);
  }
  socket.close();
  return { sse, websocket };
}

// ---- (c) compaction of a long thread --------------------------------------------------------

const parts = Array.from({ length: 18 }, (_, i) => ({ id: i + 1, name: `Part ${i + 1}`, sku: `SKU-${1000 + i}`, material: i % 2 === 0 ? 'Steel' : 'Aluminium', unitPrice: (i + 1) * 0.35, stock: 40 + i, location: `Aisle ${i % 4}, shelf ${i % 3}` }));
const summaryText = `The person asked, turn by turn, about parts and their SKUs, materials, prices and stock. ${parts.map((part) => `${part.name} is ${part.sku}, ${part.material}, ${part.unitPrice.toFixed(2)} each, ${part.stock} in stock at ${part.location}.`).join(' ')} No decision is open.`;
const longScript: ScriptInput = {
  model: 'scripted-long',
  completions: [
    { repeat: true, when: { userTextContains: 'Assistant called lookup' }, text: summaryText },
    { repeat: true, when: { toolName: 'lookup' }, text: ['Part 3 is SKU-1002, made of steel; ', 'it costs 1.05 each and 42 are in stock ', 'at aisle 2, shelf 2. Part 4 is aluminium.'] },
    { repeat: true, toolCalls: [{ name: 'lookup', arguments: { q: 'parts' } }] },
  ],
};
const lookup = defineTool({ name: 'lookup', description: 'Looks parts up.', input: z.object({ q: z.string() }), effect: 'read', handler: () => ({ rows: parts }) });
const longActor = { kind: 'anonymous', sessionKey: 'long' } as const;

/** Times the summary rounds (from the first summary request) to the summary's commit (`updateThread` with a summary). */
interface Span {
  start?: number;
  end?: number;
  rounds: number;
}

function spanProvider(provider: Provider, span: Span): Provider {
  return {
    name: provider.name,
    model: provider.model,
    checkConfiguration: () => provider.checkConfiguration(),
    complete(request) {
      const first = request.messages[0];
      if (first?.role === 'system' && first.content.startsWith('Summarize the conversation below')) {
        span.start ??= performance.now();
        span.rounds++;
      }
      return provider.complete(request);
    },
  };
}

function spanStore(store: Store, span: Span): Store {
  return new Proxy(store, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      const method = (value as (...args: unknown[]) => unknown).bind(target);
      if (property !== 'updateThread') return method;
      return async (...args: unknown[]) => {
        const result = await method(...args);
        if ((args[1] as { summary?: unknown } | undefined)?.summary != null) span.end = performance.now();
        return result;
      };
    },
  });
}

async function compactionBench(dir: string, turns: number, samples: number): Promise<(string | number)[][]> {
  const path = join(dir, 'long.sqlite');
  const store = await openSqliteStore({ path });
  const build = createEngine({ store, provider: createScriptedProvider(longScript), tools: [lookup], settings: { recoverOnStart: false, contextWindowTokens: 10_000_000 } });
  let thread = '';
  for (let i = 0; i < turns; i++) {
    const { events } = await collect(build.send({ actor: longActor, requestKey: `r${i}`, text: `Turn ${i}: which parts do we stock, with their SKU, material, price and shelf?` }));
    thread = String((events[0] as { thread_id?: string }).thread_id ?? thread);
  }
  await build.close();
  await store.close();

  const once = async (compacting: boolean, index: number): Promise<{ ms: number; span?: number; rounds: number }> => {
    const copy = join(dir, `long-${compacting ? 'c' : 'n'}-${index}.sqlite`);
    copyFileSync(path, copy);
    const span: Span = { rounds: 0 };
    const base = await openSqliteStore({ path: copy });
    const engine = createEngine({
      store: spanStore(base, span),
      provider: spanProvider(createScriptedProvider(longScript), span),
      tools: [lookup],
      settings: { recoverOnStart: false, ...(compacting ? {} : { contextWindowTokens: 10_000_000 }) },
    });
    const started = performance.now();
    const { events } = await collect(engine.send({ actor: longActor, requestKey: `next-${index}`, threadId: thread, text: `Turn ${turns}: and which of them are steel?` }));
    const ms = performance.now() - started;
    if (!events.some((event) => event.type === 'done')) throw new Error(`compaction: the turn did not finish: ${JSON.stringify(events.slice(-2))}`);
    const summary = (await base.getThread(thread))?.summary ?? null;
    await engine.close();
    await base.close();
    rmSync(copy, { force: true });
    if (compacting && summary === null) throw new Error('compaction: the 201st turn did not compact (no summary installed); make the turns longer');
    if (!compacting && summary !== null) throw new Error('compaction: the reference turn compacted');
    return { ms, rounds: span.rounds, ...(span.start !== undefined && span.end !== undefined ? { span: span.end - span.start } : {}) };
  };
  await once(true, -1);
  await once(false, -1);
  const withCompaction: number[] = [];
  const without: number[] = [];
  const spans: number[] = [];
  const differences: number[] = [];
  let rounds = 0;
  for (let i = 0; i < samples; i++) {
    const compacted = await once(true, i);
    const plain = await once(false, i);
    withCompaction.push(compacted.ms);
    without.push(plain.ms);
    differences.push(compacted.ms - plain.ms);
    if (compacted.span !== undefined) spans.push(compacted.span);
    rounds = compacted.rounds;
  }
  return [
    [`the turn after ${turns} turns, compacting (128k window, ${rounds} summary round${rounds === 1 ? '' : 's'})`, summarize(withCompaction).median],
    ['the same turn, not compacting (a window too large to)', summarize(without).median],
    ['compaction step (the difference, median of the pairs)', summarize(differences).median],
    ['first summary request → summary committed', summarize(spans).median],
  ];
}

// ---- the run --------------------------------------------------------------------------------

function median(values: readonly number[]): number {
  return summarize(values).median;
}

const benchmark: Benchmark = {
  name: 'views',
  async run(args) {
    if (args[0] === '--server') return serverMain(args[1]!, Number(args[2]));
    const observers = Number(option(args, '--observers', '100'));
    const runs = Number(option(args, '--runs', '3'));
    const seconds = Number(option(args, '--seconds', '8'));
    const gap = Number(option(args, '--gap', '1000'));
    const resumes = Number(option(args, '--resumes', '15'));
    const turns = Number(option(args, '--turns', '200'));
    const samples = Number(option(args, '--samples', '9'));
    const transports = option(args, '--transports', 'sse,websocket').split(',') as ('sse' | 'websocket')[];
    const control = Number(option(args, '--control', '1'));
    const coalesceMs = Number(option(args, '--coalesce-ms', '25'));
    const dir = mkdtempSync(join(tmpdir(), 'plumb-bench-views-'));
    try {
      writeFileSync(join(dir, 'script.json'), JSON.stringify(script));
      console.log(`views benchmark · ${machineLine()} · load average before the run ${loadavg().map((value) => value.toFixed(2)).join(' ')} · server and observers in separate processes on loopback · SQLite journal · viewCoalesceMs ${coalesceMs} · ${runs} runs, a fresh server each`);
      const busy = new Map<string, BusyResult[]>();
      const controls = new Map<string, BusyResult[]>();
      const resumed = { sse: [] as number[], websocket: [] as number[] };
      const clocks: { offset: number; rtt: number }[] = [];
      for (let run = 0; run < runs; run++) {
        for (const transport of transports) {
          const server = new ServerProcess(dir, coalesceMs);
          await server.ready();
          const clock = await server.clockOffset();
          clocks.push(clock);
          const result = await observersRun(server, transport, observers, seconds, clock.offset);
          busy.set(transport, [...(busy.get(transport) ?? []), result]);
          // The control: as many seconds on the same server with `control` observers, right after.
          if (control > 0) {
            const few = await observersRun(server, transport, control, seconds, clock.offset, false);
            controls.set(transport, [...(controls.get(transport) ?? []), few]);
          }
          if (transport === transports[0]) {
            const times = await resumeRun(server, gap, resumes);
            resumed.sse.push(median(times.sse));
            resumed.websocket.push(median(times.websocket));
          }
          await server.stop();
          rmSync(join(dir, 'chat.sqlite'), { force: true });
          rmSync(join(dir, 'chat.sqlite-wal'), { force: true });
          rmSync(join(dir, 'chat.sqlite-shm'), { force: true });
          console.log(`run ${run + 1} ${transport}: ${JSON.stringify({ ...result, byKind: undefined }, (_key, value: unknown) => (typeof value === 'number' ? Number(value.toFixed(2)) : value))}`);
        }
      }
      const every = (results: readonly BusyResult[], pick: (result: BusyResult) => number | undefined): string => results.map((result) => pick(result)?.toFixed(1) ?? '—').join(' · ');
      printTable(
        `${observers} observers of one busy thread (medians of ${runs} runs; every run after the ·)`,
        ['transport', 'events/s delivered (all observers)', 'events/s committed', 'lag p50 ms', 'lag p99 ms', 'lag p99, every run', 'p99 drafts / other events ms', 'lag max ms', 'missed', 'resubscribe', 'heap / idle observer KiB', 'RSS / idle observer KiB', 'busy RSS rise MiB: writer alone / with observers'],
        [...busy].map(([transport, results]) => [
          transport,
          median(results.map((result) => result.eventsPerSecond)),
          median(results.map((result) => result.committedPerSecond)),
          median(results.map((result) => result.lagP50)),
          median(results.map((result) => result.lagP99)),
          every(results, (result) => result.lagP99),
          `${median(results.map((result) => result.draftLagP99)).toFixed(1)} / ${median(results.map((result) => result.otherLagP99)).toFixed(1)}`,
          median(results.map((result) => result.lagMax)),
          String(results.reduce((sum, result) => sum + result.missed, 0)),
          String(results.reduce((sum, result) => sum + result.resubscribes, 0)),
          median(results.map((result) => result.idleHeapKb)),
          median(results.map((result) => result.idleRssKb)),
          `${median(results.map((result) => result.aloneRiseMb)).toFixed(1)} / ${median(results.map((result) => result.observedRiseMb)).toFixed(1)}`,
        ]),
      );
      if (controls.size > 0) {
        printTable(
          `Control: ${control} observer${control === 1 ? '' : 's'} of the same busy thread, on the same server right after (medians of ${runs} runs)`,
          ['transport', 'lag p50 ms', 'lag p99 ms', 'lag p99, every run', 'p99 drafts / other events ms', 'lag max ms', 'missed'],
          [...controls].map(([transport, results]) => [
            transport,
            median(results.map((result) => result.lagP50)),
            median(results.map((result) => result.lagP99)),
            every(results, (result) => result.lagP99),
            `${median(results.map((result) => result.draftLagP99)).toFixed(1)} / ${median(results.map((result) => result.otherLagP99)).toFixed(1)}`,
            median(results.map((result) => result.lagMax)),
            String(results.reduce((sum, result) => sum + result.missed, 0)),
          ]),
        );
      }
      printTable(
        `The ${observers}-observer busy phases: how busy each process was (medians; every run after the ·)`,
        ['transport', 'lag p99 ms, every run', 'server loop delay p99 / max ms, every run', "observers' loop delay p99 / max ms, every run", 'server loop busy %', 'server CPU % of a core', '1-min load average after, every run'],
        [...busy].map(([transport, results]) => [
          transport,
          every(results, (result) => result.lagP99),
          results.map((result) => `${result.serverLoopP99.toFixed(1)}/${result.serverLoopMax.toFixed(0)}`).join(' · '),
          results.map((result) => `${result.observersLoopP99.toFixed(1)}/${result.observersLoopMax.toFixed(0)}`).join(' · '),
          median(results.map((result) => result.serverLoopBusy)),
          median(results.map((result) => result.serverCpu)),
          every(results, (result) => result.load),
        ]),
      );
      const kinds = [...new Set([...busy.values()].flatMap((results) => results.flatMap((result) => Object.keys(result.byKind))))].sort();
      printTable(
        `Lag p99 by kind of event, ${observers} observers (ms; the median of ${runs} runs; pairs of event and observer in one run)`,
        ['event', ...[...busy.keys()].flatMap((transport) => [`${transport} p99 ms`, `${transport} pairs`])],
        kinds.map((kind) => [
          kind,
          ...[...busy.values()].flatMap((results) => [median(results.map((result) => result.byKind[kind]?.p99 ?? NaN).filter(Number.isFinite)), String(median(results.map((result) => result.byKind[kind]?.count ?? 0)))]),
        ]),
      );
      const sockets = busy.get('websocket');
      if (sockets !== undefined) {
        printTable('An idle WebSocket observer, in parts (medians)', ['per observer', 'heap KiB', 'RSS KiB'], [
          ['the socket, connected, no subscription', median(sockets.map((result) => result.socketHeapKb ?? NaN)), median(sockets.map((result) => result.socketRssKb ?? NaN))],
          ['its subscription (the view)', median(sockets.map((result) => result.idleHeapKb - (result.socketHeapKb ?? NaN))), median(sockets.map((result) => result.idleRssKb - (result.socketRssKb ?? NaN)))],
        ]);
      }
      const best = [...clocks].sort((a, b) => a.rtt - b.rtt)[0];
      console.log(`\nclock offset server − observers: ${clocks.map((clock) => clock.offset.toFixed(3)).join(' · ')} ms (IPC round trip of the best ping ${best?.rtt.toFixed(3) ?? '?'} ms: its half bounds the lag's clock error)`);
      printTable(`Resume after a ${gap.toLocaleString('en')}-item gap (median of ${resumes} per run; the median of ${runs} runs)`, ['transport', 'to the view ms', 'every run'], [
        ['SSE, new connection with Last-Event-ID', median(resumed.sse), resumed.sse.map((value) => value.toFixed(1)).join(' · ')],
        ['WebSocket, subscribe with after on an open socket', median(resumed.websocket), resumed.websocket.map((value) => value.toFixed(1)).join(' · ')],
      ]);
      printTable(`Compaction of a ${turns}-turn thread (SQLite journal, scripted provider; median of ${samples} pairs)`, ['measure', 'ms'], await compactionBench(dir, turns, samples));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};

export default benchmark;
