import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { userActor } from '../../src/core/index.js';
import { createDemoApp } from '../../src/demo/index.js';
import { createEngine } from '../../src/engine/index.js';
import { createRedisThreadEvents, createServer, parseConfig } from '../../src/server/index.js';
import { openSqliteStore } from '../../src/store/index.js';
import type { Store } from '../../src/store/index.js';
import { describeWithRedis } from '../support/redis.js';
import { tempDirEach } from '../support/temp.js';
import { openSocket } from './harness.js';
import { readEvents } from './thread-kit.js';

const fixture = join(import.meta.dirname, 'cancel-child.fixture.ts');
type Event = Record<string, unknown>;

describeWithRedis('a cancel sent to a process other than the one running the turn', (redis) => {
  const dir = tempDirEach('plumb-cancel-');
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
  });

  /** This process's server and another process's, on one SQLite journal and one Redis. */
  async function twoProcesses(cancelTimeoutMs = 10_000): Promise<{ here: string; there: string; store: Store; child: ChildProcess }> {
    const path = join(dir.path, 'journal.db');
    const prefix = redis.prefix();
    const control = `${prefix}control`;
    const store = await openSqliteStore({ path });
    closers.push(() => store.close());
    const child = await startChild([path, redis.url, prefix, control]);
    closers.push(() => child.close());
    const events = await createRedisThreadEvents({ url: redis.url, timeoutMs: 2000, prefix, controlChannel: control, report: (error) => { throw error; } });
    closers.push(() => events.close());
    const engine = createEngine({ store, tools: [] });
    closers.push(() => engine.close());
    const app = await createDemoApp({ path: ':memory:' });
    closers.push(() => app.close());
    const server = await createServer({ app, engine, settings: parseConfig({ cancelTimeoutMs }), authenticate: () => ({ actor: userActor('alice'), credential: 'token' }), following: { store, events } });
    closers.push(() => server.close());
    const here = await server.listen({ port: 0, host: '127.0.0.1' });
    return { here, there: child.url, store, child: child.process };
  }

  /** Starts a slow turn on `url` and waits for its first text: the turn is running there. */
  async function slowTurn(url: string): Promise<{ thread: string; turn: string; rest: Promise<Event[]> }> {
    const response = await fetch(`${url}/chat/stream/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text: 'slow please', new_thread: true }) });
    let started: (chunk: Event) => void = () => undefined;
    const first = new Promise<Event>((resolve) => (started = resolve));
    const rest = readEvents(response, (list) => {
      const chunk = list.find((event) => event.type === 'text_chunk');
      if (chunk !== undefined) started(chunk);
      return list.some((event) => event.type === 'done' || event.type === 'error');
    });
    const chunk = await Promise.race([first, rest.then(() => { throw new Error('the turn ended before its first chunk'); })]);
    return { thread: String(chunk.thread_id), turn: String(chunk.turn_id), rest };
  }

  const cancelAt = (url: string, thread: string): Promise<Response> =>
    fetch(`${url}/chat/cancel/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ thread }) });

  it('stops the turn where it runs and answers the cancelled turn, over HTTP and over a WebSocket', { timeout: 30_000 }, async () => {
    const { here, there, store } = await twoProcesses();

    const first = await slowTurn(there);
    const cancelled = await cancelAt(here, first.thread);
    expect(cancelled.status).toBe(200);
    expect(await cancelled.json()).toEqual({ thread: first.thread, turn: { id: first.turn, status: 'cancelled', failure_code: 'cancelled' } });
    expect((await first.rest).at(-1)).toMatchObject({ type: 'error', code: 'cancelled', turn_id: first.turn });
    expect(await store.getTurn(first.turn)).toMatchObject({ status: 'cancelled', failureCode: 'cancelled' });
    // Nothing more to stop, here or there.
    expect(await (await cancelAt(here, first.thread)).json()).toEqual({ thread: first.thread, turn: null });

    const second = await slowTurn(there);
    const socket = await openSocket(`${here.replace('http', 'ws')}/chat/`);
    closers.push(() => {
      socket.socket.close();
      return Promise.resolve();
    });
    socket.socket.send(JSON.stringify({ type: 'cancel', thread: second.thread }));
    expect(await socket.next('cancel_result')).toEqual({ type: 'cancel_result', thread_id: second.thread, turn: { id: second.turn, status: 'cancelled', failure_code: 'cancelled' } });
    expect((await second.rest).at(-1)).toMatchObject({ type: 'error', code: 'cancelled', turn_id: second.turn });
    expect(await store.getTurn(second.turn)).toMatchObject({ status: 'cancelled' });
  });

  it('answers 504 cancel_timeout when the process running the turn does not stop it in time', { timeout: 30_000 }, async () => {
    const { here, there, store, child } = await twoProcesses(300);
    const { thread, turn, rest } = await slowTurn(there);
    child.kill('SIGSTOP');
    let answer: Response;
    try {
      answer = await cancelAt(here, thread);
    } finally {
      child.kill('SIGCONT');
    }
    expect(answer.status).toBe(504);
    expect(((await answer.json()) as { error: { code: string } }).error.code).toBe('cancel_timeout');
    // The request stays sent: once the process runs again, it stops the turn.
    expect((await rest).at(-1)).toMatchObject({ type: 'error', code: 'cancelled', turn_id: turn });
    expect(await store.getTurn(turn)).toMatchObject({ status: 'cancelled' });
  });
});

async function startChild(args: readonly string[]): Promise<{ url: string; process: ChildProcess; close(): Promise<void> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', fixture, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  let err = '';
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n').find((text) => text.startsWith('{'));
      if (line !== undefined) resolve((JSON.parse(line) as { url: string }).url);
    });
    void exited.then(() => reject(new Error(`${fixture} exited before listening: ${err}`)));
  });
  return {
    url,
    process: child,
    close: async () => {
      child.stdin.end();
      const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(killer);
    },
  };
}
