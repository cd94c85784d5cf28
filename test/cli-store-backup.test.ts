import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { plumb } from './support/cli.js';
import { startServe } from './support/serve-process.js';
import type { ServeProcess } from './support/serve-process.js';
import { describeWithRedis } from './support/redis.js';
import { tempDir } from './support/temp.js';

const root = join(import.meta.dirname, '..');
const script = join(root, 'test/server/fixtures/demo-script.json');

/** A client of one server as alice: one CSRF pair, turns on new threads. */
async function client(url: string): Promise<{ turn(text: string): Promise<string>; get(path: string): Promise<Response> }> {
  const { token } = (await (await fetch(`${url}/chat/csrf/`)).json()) as { token: string };
  const headers = { 'content-type': 'application/json', 'x-csrf-token': token, cookie: `plumb_csrf=${encodeURIComponent(token)}`, 'x-plumb-user': 'alice' };
  return {
    /** Resolves with the turn's thread once the server acknowledged the turn's answer. */
    async turn(text) {
      const response = await fetch(`${url}/chat/`, { method: 'POST', headers, body: JSON.stringify({ text, new_thread: true }) });
      const body = (await response.json()) as { answer?: string; events: { thread_id: string }[] };
      if (response.status !== 200 || body.answer === undefined) throw new Error(`turn refused: ${response.status} ${JSON.stringify(body)}`);
      return body.events[0]!.thread_id;
    },
    get: (path) => fetch(`${url}${path}`, { headers }),
  };
}

/** `plumb …` in its own process, as an operator runs it beside the server. */
function plumbProcess(args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'src/cli/main.ts'), ...args], { cwd: root });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stdout, stderr })));
}

describe('plumb store backup beside a running server', () => {
  const dir = tempDir();
  const servers: ServeProcess[] = [];
  afterAll(() => {
    for (const server of servers) if (server.child.exitCode === null) server.child.kill('SIGKILL');
    dir.remove();
  });

  const configFor = (store: string, name: string): string => {
    const file = join(dir.path, name);
    writeFileSync(file, JSON.stringify({ store, rateLimit: { requests: 100_000 } }));
    return file;
  };
  const serve = async (config: string): Promise<ServeProcess> => {
    const server = await startServe(['--demo', '--db', join(dir.path, 'demo.sqlite'), '--port', '0', '--config', config, '--provider', `scripted:${script}`, '--router', 'off']);
    servers.push(server);
    return server;
  };

  it('takes a backup while turns run, and the backup holds every turn acknowledged before it began: inspected, and served by a new server', async () => {
    const config = configFor(join(dir.path, 'chat.sqlite'), 'plumb.config.json');
    const server = await serve(config);
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ ready: true, checks: { journal: 'ok', migrations: 'ok', recovery: 'ok' } });

    const acknowledged: { threadId: string; at: number }[] = [];
    let stop = false;
    const workers = await Promise.all(Array.from({ length: 4 }, () => client(server.url)));
    const running = workers.map(async (worker, index) => {
      for (let i = 0; !stop; i++) acknowledged.push({ threadId: await worker.turn(`which materials do we use? ${index}.${i}`), at: performance.now() });
    });
    while (acknowledged.length < 20) await new Promise((resolve) => setTimeout(resolve, 20));

    const copy = join(dir.path, 'copy.sqlite');
    const began = performance.now();
    const before = acknowledged.length;
    const backup = await plumbProcess(['store', 'backup', copy, '--config', config, '--json']);
    const ended = performance.now();
    const during = acknowledged.length - before;
    stop = true;
    await Promise.all(running);
    expect(backup.code, backup.stderr).toBe(0);
    expect(JSON.parse(backup.stdout)).toMatchObject({ kind: 'sqlite', file: copy });
    // The server went on answering while the backup ran.
    expect(during).toBeGreaterThan(0);

    const copyConfig = configFor(copy, 'copy.config.json');
    const earlier = acknowledged.filter((turn) => turn.at < began);
    const census = (await plumb('store', 'inspect', '--config', copyConfig, '--json')).stdout;
    const counts = JSON.parse(census) as { threads: number; turns: Record<string, number> };
    expect(counts.threads).toBeGreaterThanOrEqual(earlier.length);
    expect(counts.threads).toBeLessThanOrEqual(acknowledged.filter((turn) => turn.at <= ended).length + workers.length);
    for (const { threadId } of earlier) {
      const shown = await plumb('store', 'inspect', '--config', copyConfig, '--thread', threadId, '--json');
      expect(shown.code, shown.stderr).toBe(0);
      expect((JSON.parse(shown.stdout) as { turns: { status: string }[] }).turns).toEqual([{ id: expect.any(String), status: 'completed', errorCode: null }]);
    }

    // The backup restored: a new server on it serves those threads and takes new turns.
    const restored = await serve(copyConfig);
    expect((await fetch(`${restored.url}/readyz`)).status).toBe(200);
    const alice = await client(restored.url);
    const thread = (await (await alice.get(`/chat/threads/${earlier[0]!.threadId}`)).json()) as { items: { kind: string }[] };
    expect(thread.items.map((item) => item.kind)).toEqual(['user_text', 'tool_call', 'tool_result', 'assistant_text']);
    expect(await alice.turn('which materials do we use now?')).toEqual(expect.any(String));
  }, 60_000);
});

describeWithRedis('plumb serve with redis: /readyz', (redis) => {
  const dir = tempDir();
  let server: ServeProcess | undefined;
  afterAll(() => {
    if (server?.child.exitCode === null) server.child.kill('SIGKILL');
    dir.remove();
  });

  it('checks Redis too: ok while it answers, unreachable once it stops', async () => {
    const own = await redis.privateServer();
    const config = join(dir.path, 'plumb.config.json');
    writeFileSync(config, JSON.stringify({ store: join(dir.path, 'chat.sqlite'), redis: own.url, redisTimeoutMs: 500 }));
    server = await startServe(['--demo', '--db', join(dir.path, 'demo.sqlite'), '--port', '0', '--config', config, '--router', 'off']);
    const ready = await fetch(`${server.url}/readyz`);
    expect(await ready.json()).toEqual({ ready: true, checks: { journal: 'ok', migrations: 'ok', recovery: 'ok', redis: 'ok' } });
    await own.stop();
    const down = await fetch(`${server.url}/readyz`);
    expect(down.status).toBe(503);
    expect(((await down.json()) as { checks: Record<string, string> }).checks).toEqual({ journal: 'ok', migrations: 'ok', recovery: 'ok', redis: 'unreachable' });
  }, 30_000);
});
