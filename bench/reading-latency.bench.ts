/**
 * `npm run bench -- reading-latency [--turns 400]`
 *
 * A router-only turn (the router reads it, the dispatcher runs its reads, the renderer writes the
 * answer; no model) on the demo wired as `plumb serve --demo` wires it (`createChatStack` with
 * `demoChatHost`, the SQLite store, no provider): through the engine, then through HTTP on loopback
 * (`POST /chat/` answered as JSON, `POST /chat/stream/` as SSE) served by `createServer` over the
 * same wiring in a process of its own (so that the client's work does not share its event loop). Three turns: a data read ("which parts are made of steel?"), a count ("how
 * many parts are made of steel?") and a host tool ("show me order 4411"), all asked by Alice (the
 * engine continues the asker's latest thread, so her session is restored from the store every turn).
 * Target ≤ 5 ms median through HTTP.
 */
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { authenticateDemo, createDemoApp, demoActors, demoChatHost } from '../src/demo/index.js';
import type { Engine } from '../src/engine/index.js';
import { createChatStack, createServer, parseConfig } from '../src/server/index.js';
import type { Benchmark } from './harness.js';
import { machineLine, measure, option, printTable, summarize } from './harness.js';

const TURNS: readonly (readonly [string, string])[] = [
  ['data read', 'which parts are made of steel?'],
  ['count', 'how many parts are made of steel?'],
  ['host tool (get_order)', 'show me order 4411'],
];

/** Reads a turn's events to its end; returns what the plan said and whether it finished. */
async function turn(engine: Engine, text: string, requestKey: string): Promise<string> {
  let outcome = 'none';
  let done = false;
  for await (const event of engine.send({ actor: demoActors.alice, text, requestKey })) {
    if (event.type === 'plan') outcome = event.outcome;
    else if (event.type === 'done') done = true;
    else if (event.type === 'error') throw new Error(`${text}: ${event.code} ${event.message}`);
  }
  if (!done) throw new Error(`${text}: the turn did not finish`);
  return outcome;
}

const micro = (samples: readonly number[]): { median: number; p99: number; mean: number } => {
  const s = summarize(samples.map((ms) => ms * 1000));
  return { median: s.median, p99: s.p99, mean: s.mean };
};

/** The demo as `plumb serve --demo` wires it, over files in `dir`. */
async function openDemo(dir: string) {
  const app = await createDemoApp({ path: join(dir, 'demo.sqlite') });
  const config = parseConfig({ store: join(dir, 'chat.sqlite'), rateLimit: { requests: null } });
  const stack = await createChatStack({ app, config, host: demoChatHost(app), cwd: dir });
  return {
    app,
    config,
    engine: stack.engine,
    close: async (): Promise<void> => {
      await stack.close();
      await app.close();
    },
  };
}

/** The server process: serves the demo on loopback, says its URL, stops when told. */
async function serverMain(dir: string): Promise<void> {
  const demo = await openDemo(dir);
  const server = await createServer({ app: demo.app, engine: demo.engine, settings: demo.config, authenticate: authenticateDemo, console: false, cwd: dir });
  try {
    const url = await server.listen({ port: 0, host: '127.0.0.1' });
    const stopped = new Promise<void>((resolve) => process.once('message', () => resolve()));
    process.send?.({ url });
    await stopped;
  } finally {
    await server.close();
    await demo.close();
    process.disconnect?.();
  }
}

const benchmark: Benchmark = {
  name: 'reading-latency',
  async run(args) {
    if (args[0] === '--server') return serverMain(args[1] ?? '.');
    const count = Number(option(args, '--turns', '400'));
    const warmup = Math.min(50, count);
    const dir = mkdtempSync(join(tmpdir(), 'plumb-bench-reading-'));
    const serverDir = mkdtempSync(join(tmpdir(), 'plumb-bench-reading-server-'));
    const demo = await openDemo(dir);
    const engine = demo.engine;
    const child = fork(join(import.meta.dirname, 'run.ts'), ['reading-latency', '--server', serverDir], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    const rows: (string | number)[][] = [];
    const outcomes: string[] = [];
    try {
      const base = await new Promise<string>((resolve, reject) => {
        child.once('message', (message: { url: string }) => resolve(message.url));
        child.once('exit', (code) => reject(new Error(`the server process exited (${String(code)}) before listening`)));
      });
      // The CSRF pair is bound to the session it is issued to: Alice's, so it is asked for as Alice.
      const csrf = await fetch(`${base}/chat/csrf/`, { headers: { 'x-plumb-user': 'alice' } });
      const token = ((await csrf.json()) as { token: string }).token;
      const cookie = csrf.headers.getSetCookie().map((line) => line.split(';', 1)[0]).join('; ');
      const headers = { 'content-type': 'application/json', 'x-csrf-token': token, cookie, 'x-plumb-user': 'alice' };
      let key = 0;
      for (const [label, text] of TURNS) {
        const first = await turn(engine, text, `probe-${key++}`);
        console.error(`${label}: ${first}; measuring`);
        outcomes.push(`${label}: ${first}`);
        const direct = micro(await measure(count, () => turn(engine, text, `e-${key++}`), warmup));
        console.error(`  engine ${direct.median.toFixed(0)} µs`);
        const json = micro(
          await measure(count, async () => {
            const response = await fetch(`${base}/chat/`, { method: 'POST', headers, body: JSON.stringify({ text }) });
            const body = await response.text();
            if (response.status !== 200 || body.includes('"type":"error"')) throw new Error(`POST /chat/ ${response.status}: ${body.slice(0, 200)}`);
          }, warmup),
        );
        console.error(`  POST /chat/ ${json.median.toFixed(0)} µs`);
        const sse = micro(
          await measure(count, async () => {
            const response = await fetch(`${base}/chat/stream/`, { method: 'POST', headers, body: JSON.stringify({ text }) });
            const body = await response.text();
            if (response.status !== 200 || !body.includes('"type":"done"')) throw new Error(`POST /chat/stream/ ${response.status}: ${body.slice(0, 200)}`);
          }, warmup),
        );
        console.error(`  POST /chat/stream/ ${sse.median.toFixed(0)} µs`);
        rows.push([label, text, direct.median, direct.p99, json.median, json.p99, sse.median, sse.p99, json.median <= 5000 ? 'yes' : 'no']);
      }
    } finally {
      if (child.connected) child.send('stop');
      await exited;
      await demo.close();
      rmSync(dir, { recursive: true, force: true });
      rmSync(serverDir, { recursive: true, force: true });
    }
    printTable(`Router-only turn latency, SQLite store (µs; HTTP served by a separate process) — ${machineLine()}`, ['turn', 'text', 'engine median', 'engine p99', 'POST /chat/ median', 'POST /chat/ p99', 'POST /chat/stream/ median', 'p99', 'HTTP ≤ 5 ms'], rows);
    console.log(`\nplans: ${outcomes.join('; ')} · ${count} turns per cell after ${warmup} unmeasured · load average ${loadavg().map((l) => l.toFixed(1)).join(', ')}`);
  },
};

export default benchmark;
