import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from './support/temp.js';

const root = join(import.meta.dirname, '..');

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- responses are checked field by field below
const body = async (response: Response): Promise<any> => response.json();

/** Starts `plumb serve` as a user would, in its own process, and waits for the URL it prints. */
async function startServe(args: string[]): Promise<{ child: ChildProcessWithoutNullStreams; url: string; output: () => string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'src/cli/main.ts'), 'serve', ...args], { cwd: root });
  let output = '';
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match?.[1] !== undefined) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`serve exited early (${code}): ${output}`)));
  });
  return { child, url, output: () => output };
}

describe('plumb serve', () => {
  const dir = tempDir();
  let server: Awaited<ReturnType<typeof startServe>>;
  beforeAll(async () => {
    server = await startServe(['--demo', '--db', join(dir.path, 'demo.sqlite'), '--port', '0']);
  });
  afterAll(() => {
    if (server.child.exitCode === null) server.child.kill('SIGKILL');
    dir.remove();
  });

  const graphql = (body: unknown, headers: Record<string, string> = {}): Promise<Response> =>
    fetch(`${server.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

  it('answers /healthz', async () => {
    const response = await fetch(`${server.url}/healthz`);
    expect(response.status).toBe(200);
    expect(await body(response)).toEqual({ status: 'ok' });
  });

  it('executes /graphql as the user named by X-Plumb-User', async () => {
    const query = '{ orderList(filter: {id__in: [4411, 4412]}) { items { id total } pageInfo { totalCount } } }';
    const asAlice = await body(await graphql({ query }, { 'x-plumb-user': 'alice' }));
    expect(asAlice.data.orderList.pageInfo.totalCount).toBe(2);
    const asAnonymous = await body(await graphql({ query }));
    expect(asAnonymous.data?.orderList?.pageInfo.totalCount ?? 0).toBe(0);
  });

  it('also reads the user from the plumb_user cookie', async () => {
    const customers = await body(await graphql({ query: '{ customerList { pageInfo { totalCount } } }' }, { cookie: 'plumb_user=bob' }));
    expect(customers.data.customerList.pageInfo.totalCount).toBe(10);
  });

  it.each([
    ['malformed JSON', '{"query": ', 400, 'bad_request'],
    ['a missing query', '{}', 400, 'bad_request'],
    ['variables that are not an object', '{"query":"{ a }","variables":[1]}', 400, 'bad_request'],
  ])('refuses %s with a coded error', async (_, raw, status, code) => {
    const response = await fetch(`${server.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: raw });
    expect(response.status).toBe(status);
    expect((await body(response)).error.code).toBe(code);
  });

  it('refuses an unknown demo user with 401', async () => {
    const response = await graphql({ query: '{ a }' }, { 'x-plumb-user': 'mallory' });
    expect(response.status).toBe(401);
    expect((await body(response)).error).toMatchObject({ code: 'unauthenticated', message: expect.stringMatching(/alice, bob/) });
  });

  it('refuses a body over the limit with 413', async () => {
    const response = await graphql({ query: `{ materialList { items { name } } }${' '.repeat(70 * 1024)}` });
    expect(response.status).toBe(413);
    expect((await body(response)).error.code).toBe('payload_too_large');
  });

  it('answers 404 with a coded error for an unknown route', async () => {
    const response = await fetch(`${server.url}/nope`);
    expect(response.status).toBe(404);
    expect((await body(response)).error.code).toBe('not_found');
  });

  it('shuts down cleanly on SIGTERM', async () => {
    server.child.kill('SIGTERM');
    const [code] = (await once(server.child, 'exit')) as [number | null];
    expect(code).toBe(0);
    expect(server.output()).toMatch(/Shutting down/);
  });
});
