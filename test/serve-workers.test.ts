import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { describeWithPostgres } from '../src/data/testing/postgres.js';
import { openPostgresStore } from '../src/postgres/index.js';
import { describeWithRedis } from './support/redis.js';
import { startServe } from './support/serve-process.js';
import type { ServeProcess } from './support/serve-process.js';
import { tempDirEach } from './support/temp.js';

/** A host whose write tool records that it ran, then never finishes (the worker running it is killed). */
const hostModule = `import { defineHost, defineManager, defineTool, z } from 'plumb-agent';
import { appendFileSync } from 'node:fs';

export function authenticate(request) {
  const user = request.headers['x-user'];
  return typeof user === 'string' ? { actor: { kind: 'user', id: user, roles: [] }, credential: 'token' } : null;
}

export default defineHost({
  managers: [defineManager({ name: 'Part', fields: { name: 'string' }, chatExposed: true })],
  tools: [
    defineTool({
      name: 'slow_write',
      description: 'Writes slowly.',
      input: z.object({}),
      effect: 'write',
      confirm: false,
      handler: async () => {
        appendFileSync(process.env.PLUMB_TEST_MARKER, process.pid + '\\n');
        await new Promise(() => undefined);
      },
    }),
  ],
});
`;

const script = {
  completions: [
    { repeat: true, when: { toolName: 'slow_write' }, text: 'never' },
    { repeat: true, when: { userTextContains: 'write' }, toolCalls: [{ name: 'slow_write', arguments: {} }] },
    { repeat: true, text: 'Hello there.' },
  ],
};

describeWithPostgres('plumb serve --workers on PostgreSQL and Redis', (postgres) => {
  describeWithRedis('with Redis', (redis) => {
    const dir = tempDirEach('plumb-workers-');
    let served: ServeProcess | undefined;
    afterEach(() => {
      if (served !== undefined && served.child.exitCode === null) served.child.kill('SIGKILL');
      served = undefined;
    });

    it("loses no acknowledged item when a worker is SIGKILLed mid-write: the write ran once, the turn ends effect_outcome_unknown once the lease lapses, the other worker serves throughout, and shutdown drains both", { timeout: 90_000 }, async () => {
      const schema = await postgres.freshSchema();
      const store = new URL(postgres.url);
      store.searchParams.set('options', `-c search_path=${schema}`);
      const marker = join(dir.path, 'marker.txt');
      writeFileSync(join(dir.path, 'app.ts'), hostModule);
      writeFileSync(join(dir.path, 'script.json'), JSON.stringify(script));
      const config = join(dir.path, 'plumb.config.json');
      writeFileSync(config, JSON.stringify({ app: './app.ts', authenticate: './app.ts', database: 'app.sqlite', store: store.toString(), redis: redis.url, provider: 'scripted:script.json', router: 'off', leaseSeconds: 1, rateLimit: { requests: 1000 } }));
      process.env.PLUMB_TEST_MARKER = marker;
      served = await startServe(['--config', config, '--port', '0', '--workers', '2']);
      const url = served.url;
      const post = (user: string, text: string, path = '/chat/') =>
        fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-user': user, connection: 'close' }, body: JSON.stringify({ text }) });

      // Alice's turn: its write starts on one worker; the stream shows the journaled tool call.
      const stream = await post('alice', 'please write it', '/chat/stream/');
      expect(stream.status).toBe(200);
      const reader = stream.body!.getReader();
      let seen = '';
      while (!seen.includes('"type":"tool_call"')) {
        const { value, done } = await reader.read();
        if (done) break;
        seen += new TextDecoder().decode(value);
      }
      expect(seen).toContain('"type":"tool_call"');
      for (let i = 0; i < 200 && !(existsSync(marker) && readFileSync(marker, 'utf8').includes('\n')); i++) await new Promise((resolve) => setTimeout(resolve, 10));
      const pid = Number(readFileSync(marker, 'utf8').trim());
      expect(pid).toBeGreaterThan(0);
      const threadId = /"thread_id":"([^"]+)"/.exec(seen)?.[1];
      expect(threadId).toBeDefined();

      process.kill(pid, 'SIGKILL');
      await reader.read().catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 200));
      // Bob is served throughout, by the worker left and then by the one started in its place.
      for (let i = 0; i < 6; i++) {
        const answer = await post('bob', `hello ${i}`);
        expect(answer.status).toBe(200);
        expect(JSON.stringify(await answer.json())).toContain('Hello there.');
        await new Promise((resolve) => setTimeout(resolve, 300));
      }

      const journal = await openPostgresStore({ url: postgres.url, schema });
      try {
        let turn;
        for (let i = 0; i < 100; i++) {
          [turn] = await journal.listTurns(threadId!);
          if (turn?.status === 'failed') break;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        expect(turn).toMatchObject({ status: 'failed', failureCode: 'effect_outcome_unknown' });
        const kinds = (await journal.listItems(threadId!)).map((item) => item.kind);
        expect(kinds).toEqual(['user_text', 'tool_call', 'error']);
      } finally {
        await journal.close();
      }
      expect(readFileSync(marker, 'utf8').trim().split('\n')).toEqual([String(pid)]);

      const exited = new Promise<number | null>((resolve) => served!.child.once('exit', (code) => resolve(code)));
      served.child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(served.output()).toContain('Shutting down 2 workers');
      expect(served.output()).toContain(`worker`);
    });
  });
});
