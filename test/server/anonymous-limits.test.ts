import { afterEach, describe, expect, it } from 'vitest';
import { anonymous } from '../../src/core/index.js';
import { rateScope } from '../../src/server/index.js';
import type { PlumbConfigInput } from '../../src/server/index.js';
import { Client, openSocket, startServer } from './harness.js';
import type { Running } from './harness.js';
import { createFakeEngine } from './fake-engine.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are checked field by field
type Json = any;

let running: Running | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

const serve = async (settings: PlumbConfigInput): Promise<Running> => (running = await startServer(createFakeEngine(), settings));

/** One turn from a client that keeps nothing between requests: a fresh cookie jar, a fresh CSRF pair. */
async function turnWithoutCookies(url: string, headers: Record<string, string> = {}): Promise<number> {
  const client = await new Client(url, headers).withCsrf();
  return (await client.post('/chat/', { text: 'hello' })).status;
}

describe('anonymous budgets follow the client address', () => {
  it('admits no more turns than the limit from a client that throws its cookies away', async () => {
    const server = await serve({ rateLimit: { requests: 5 } });
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push(await turnWithoutCookies(server.url));
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);
  });

  it('counts the token budget by address too, across sessions', async () => {
    const server = await serve({ rateLimit: { requests: 100, outputTokens: 50 } });
    const first = await new Client(server.url).withCsrf();
    expect((await first.post('/chat/', { text: 'usage 60' })).status).toBe(200);
    const second = await new Client(server.url).withCsrf();
    const refused = await second.post('/chat/', { text: 'hello' });
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as Json).events[0].message).toMatch(/output_tokens/);
  });

  it('limits the new sessions one address may start, on every route that starts one', async () => {
    const server = await serve({ rateLimit: { sessions: 3 } });
    const kept = await new Client(server.url).withCsrf();
    for (let i = 0; i < 2; i++) expect((await fetch(`${server.url}/chat/csrf/`)).status).toBe(200);
    const refused = await fetch(`${server.url}/chat/csrf/`);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.headers.getSetCookie().some((cookie) => cookie.startsWith('plumb_session='))).toBe(false);
    expect(((await refused.json()) as Json).error).toMatchObject({ code: 'rate_limited', message: expect.stringMatching(/new sessions/) });
    expect((await fetch(`${server.url}/console/`)).status).toBe(429);
    const socket = await openSocket(`${server.wsUrl}/chat/`).catch((error: unknown) => error);
    expect(String(socket)).toMatch(/429/);
    // A client that keeps its cookie goes on as before.
    expect((await kept.post('/chat/', { text: 'hello' })).status).toBe(200);
    expect((await kept.fetch('/chat/csrf/')).status).toBe(200);
  });

  it('makes no session where no conversation starts', async () => {
    const server = await serve({ rateLimit: { sessions: 1 } });
    for (const path of ['/healthz', '/console/session', '/chat/threads/']) {
      const response = await fetch(`${server.url}${path}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.getSetCookie(), path).toEqual([]);
    }
    expect((await new Client(server.url).withCsrf()).cookies.has('plumb_session')).toBe(true);
  });

  it('ignores X-Forwarded-For unless trustProxy is set', async () => {
    const server = await serve({ rateLimit: { requests: 2 } });
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push(await turnWithoutCookies(server.url, { 'x-forwarded-for': `203.0.113.${i}` }));
    expect(statuses).toEqual([200, 200, 429]);
  });

  it('keys by the forwarded address with trustProxy', async () => {
    const server = await serve({ rateLimit: { requests: 2 }, trustProxy: ['127.0.0.1'] });
    const from = (address: string): Promise<number> => turnWithoutCookies(server.url, { 'x-forwarded-for': address });
    expect([await from('203.0.113.7'), await from('203.0.113.7'), await from('203.0.113.7')]).toEqual([200, 200, 429]);
    expect(await from('198.51.100.1')).toBe(200);
  });

  it('with anonymousBy session, gives each visitor behind one address a budget of its own, still bounded by new sessions', async () => {
    const server = await serve({ rateLimit: { requests: 2, sessions: 3, anonymousBy: 'session' } });
    const visitors = [await new Client(server.url).withCsrf(), await new Client(server.url).withCsrf()];
    const statuses: number[] = [];
    for (const visitor of visitors) for (let i = 0; i < 3; i++) statuses.push((await visitor.post('/chat/', { text: 'hello' })).status);
    expect(statuses).toEqual([200, 200, 429, 200, 200, 429]);
    // The risk it takes: a client that drops its cookie starts afresh, but only as often as `sessions` allows.
    expect(await turnWithoutCookies(server.url)).toBe(200);
    expect((await fetch(`${server.url}/chat/csrf/`)).status).toBe(429);
    expect(rateScope({ kind: 'anonymous', sessionKey: 'k1' }, '192.0.2.1', 'session')).toBe('session:k1');
    expect(rateScope(anonymous, '192.0.2.1', 'session')).toBe(rateScope(anonymous, '192.0.2.1'));
  });

  it('keys an IPv6 client by its /64, an IPv4-mapped one by its IPv4 address', () => {
    expect(rateScope(anonymous, '2001:db8:1:2::1')).toBe(rateScope(anonymous, '2001:0db8:0001:0002:ffff:1:2:3'));
    expect(rateScope(anonymous, '2001:db8:1:2::1')).not.toBe(rateScope(anonymous, '2001:db8:1:3::1'));
    expect(rateScope(anonymous, '::ffff:192.0.2.1')).toBe(rateScope(anonymous, '192.0.2.1'));
    expect(rateScope({ kind: 'user', id: 'alice', roles: [] }, '192.0.2.1')).toBe('user:alice');
  });
});

describe('CSRF bound to the session', () => {
  it('refuses a cookie and header pair issued to another session', async () => {
    const server = await serve({});
    const victim = await new Client(server.url).withCsrf();
    const attacker = await new Client(server.url).withCsrf();
    // The attacker's own pair, planted beside the victim's session cookie.
    const planted = new Client(server.url);
    planted.cookies.set('plumb_session', victim.cookies.get('plumb_session')!);
    planted.cookies.set('plumb_csrf', attacker.cookies.get('plumb_csrf')!);
    planted.csrf = attacker.csrf;
    for (const path of ['/chat/', '/chat/stream/', '/chat/confirm/']) {
      const response = await planted.post(path, path === '/chat/confirm/' ? { confirmation_id: 'c1', confirmed: true } : { text: 'hello' });
      expect(response.status, path).toBe(403);
      expect(((await response.json()) as Json).error.code, path).toBe('csrf_failed');
    }
    expect((await victim.post('/chat/', { text: 'hello' })).status).toBe(200);
    expect((await attacker.post('/chat/', { text: 'hello' })).status).toBe(200);
  });

  it('refuses a pair issued before a sign-in once the actor is someone else', async () => {
    const server = await serve({});
    const visitor = await new Client(server.url).withCsrf();
    // The same cookies, now authenticated as bob by a cookie-kind credential: the pair was the anonymous session's.
    visitor.headers['x-plumb-user'] = 'bob';
    expect((await visitor.post('/chat/', { text: 'hello' })).status).toBe(403);
    await visitor.withCsrf();
    expect((await visitor.post('/chat/', { text: 'hello' })).status).toBe(200);
  });

  it('never shows the session key to the page: the token names no session', async () => {
    const server = await serve({});
    const client = await new Client(server.url).withCsrf();
    const session = decodeURIComponent(client.cookies.get('plumb_session')!).split('.')[0]!;
    expect(client.csrf).not.toContain(session);
  });
});
