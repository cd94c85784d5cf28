import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServe } from './support/serve-process.js';
import { tempDir } from './support/temp.js';

const root = join(import.meta.dirname, '..');

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- responses are checked field by field below
const body = async (response: Response): Promise<any> => response.json();

describe('plumb serve', () => {
  const dir = tempDir();
  let server: Awaited<ReturnType<typeof startServe>>;
  beforeAll(async () => {
    const config = join(dir.path, 'plumb.config.json');
    writeFileSync(config, JSON.stringify({ store: join(dir.path, 'chat.sqlite'), allowedMutations: ['createMaterial'], confirmMutations: ['createMaterial'] }));
    server = await startServe(['--demo', '--db', join(dir.path, 'demo.sqlite'), '--port', '0', '--config', config, '--provider', `scripted:${join(root, 'test/server/fixtures/demo-script.json')}`, '--router', 'off']);
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

  it('reads the user from the signed login cookie the console sets, and ignores a forged one', async () => {
    const page = await fetch(`${server.url}/console/`);
    const csrf = /plumb_csrf=([^;]+)/.exec(page.headers.getSetCookie().join('\n'))![1]!;
    // The page's token is bound to the session the page started: both cookies go back.
    const cookies = page.headers.getSetCookie().map((line) => line.split(';')[0]).join('; ');
    const login = await fetch(`${server.url}/console/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-csrf-token': decodeURIComponent(csrf), cookie: cookies },
      body: JSON.stringify({ user: 'bob' }),
    });
    expect(login.status).toBe(200);
    const cookie = /plumb_login=[^;]+/.exec(login.headers.getSetCookie().join('\n'))![0];
    const customers = await body(await graphql({ query: '{ customerList { pageInfo { totalCount } } }' }, { cookie }));
    expect(customers.data.customerList.pageInfo.totalCount).toBe(10);
    const forged = await body(await graphql({ query: '{ customerList { pageInfo { totalCount } } }' }, { cookie: 'plumb_login=bob.forged; plumb_user=bob' }));
    expect(forged.data?.customerList?.pageInfo.totalCount ?? 0).toBe(0);
  });

  it('answers a chat turn with the configured scripted provider', async () => {
    const csrfResponse = await fetch(`${server.url}/chat/csrf/`);
    const { token } = (await csrfResponse.json()) as { token: string };
    const response = await fetch(`${server.url}/chat/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-csrf-token': token, cookie: `plumb_csrf=${encodeURIComponent(token)}`, 'x-plumb-user': 'bob' },
      body: JSON.stringify({ text: 'which materials do we use?' }),
    });
    const answer = await body(response);
    expect(answer.answer).toBe('Here are the materials the shop uses, with their densities.');
    expect(answer.events[0]).toMatchObject({ type: 'tool_call', name: 'query' });
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

  it('says which port is taken and what to do when another server holds it, exiting 1', async () => {
    const port = new URL(server.url).port;
    const second = startServe(['--demo', '--db', join(dir.path, 'second.sqlite'), '--port', port, '--router', 'off']);
    await expect(second).rejects.toThrow(/serve exited early \(1\): plumb: 127\.0\.0\.1:\d+ is already in use \(another plumb serve\?\)\. Stop that process or pass --port/);
  });

  it('shuts down cleanly on SIGTERM', async () => {
    server.child.kill('SIGTERM');
    const [code] = (await once(server.child, 'exit')) as [number | null];
    expect(code).toBe(0);
    expect(server.output()).toMatch(/Shutting down/);
  });
});
