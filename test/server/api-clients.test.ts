import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PlumbError } from '../../src/core/index.js';
import type { Actor } from '../../src/core/index.js';
import { createDemoApp, demoActor } from '../../src/demo/index.js';
import type { App } from '../../src/data/index.js';
import { createFetchHandler, createServer, parseConfig, readCookie } from '../../src/server/index.js';
import type { Authenticate, ChatEngine, EngineEvent, PlumbChatOptions } from '../../src/server/index.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are checked field by field
type Json = any;

/** Answers every turn with who asked. */
const whoAsked: ChatEngine = {
  async *send({ actor }) {
    await Promise.resolve();
    yield { type: 'text_chunk', content: `asked by ${actor.kind === 'user' ? actor.id : 'anonymous'}`, thread_id: 't1', turn_id: 'u1' } as EngineEvent;
    yield { type: 'done', usage: { input_tokens: 0, output_tokens: 0 }, thread_id: 't1', turn_id: 'u1' } as EngineEvent;
  },
  async *confirm() {
    await Promise.resolve();
    yield { type: 'error', code: 'confirmation_unavailable', message: 'No such confirmation.' } as EngineEvent;
  },
  threads: { list: () => Promise.resolve([]), history: () => Promise.resolve([]) },
};

const tokens = new Map<string, Actor>([['token-for-bob', demoActor('bob')!]]);

/**
 * The host's authenticate: a bearer token (`credential: 'token'`), else its own session cookie
 * (a bare actor: a cookie), else its "remember me" cookie said to be one; nothing means anonymous.
 */
const authenticate: Authenticate = (request) => {
  const authorization = request.headers.authorization;
  if (typeof authorization === 'string' && authorization.startsWith('Bearer ')) {
    const actor = tokens.get(authorization.slice('Bearer '.length));
    if (actor === undefined) throw new PlumbError('unauthenticated', 'Unknown API token.');
    return { actor, credential: 'token' };
  }
  const cookie = typeof request.headers.cookie === 'string' ? request.headers.cookie : undefined;
  const session = readCookie(cookie, 'shop_session');
  if (session !== undefined) return demoActor(session) ?? null;
  const remembered = readCookie(cookie, 'shop_remember');
  const actor = remembered === undefined ? undefined : demoActor(remembered);
  return actor === undefined ? null : { actor, credential: 'cookie' };
};

interface Transport {
  send(path: string, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

const transports: [string, (options: PlumbChatOptions) => Promise<Transport>][] = [
  [
    'the fastify server',
    async (options) => {
      const server = await createServer(options);
      const url = await server.listen({ port: 0, host: '127.0.0.1' });
      return { send: (path, init) => fetch(`${url}${path}`, init), close: () => server.close() };
    },
  ],
  [
    'the fetch handler',
    async (options) => {
      const handler = await createFetchHandler(options);
      return { send: (path, init) => handler.handle(new Request(`http://plumb.test${path}`, init)), close: () => handler.close() };
    },
  ],
];

const cookiesOf = (response: Response): string =>
  response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');

describe.each(transports)('API clients and CSRF over %s', (_, start) => {
  let app: App;
  let transport: Transport;
  beforeAll(async () => {
    app = await createDemoApp({ path: ':memory:' });
    transport = await start({
      app,
      engine: whoAsked,
      settings: parseConfig({ rateLimit: { requests: 1000 } }),
      authenticate,
      login: { names: ['alice'], resolve: (name) => (name === 'alice' ? demoActor('alice') : undefined) },
      secret: 'x'.repeat(40),
    });
  });
  afterAll(async () => {
    await transport.close();
    await app.close();
  });

  const post = (path: string, headers: Record<string, string>, body: unknown = { text: 'hello' }): Promise<Response> =>
    transport.send(path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

  /** A CSRF pair issued to a caller that already holds `cookie`. */
  const csrfPair = async (cookie = ''): Promise<Record<string, string>> => {
    const issued = await transport.send('/chat/csrf/', { headers: cookie === '' ? {} : { cookie } });
    const { token } = (await issued.json()) as { token: string };
    // A cookie the response sets replaces the one of the same name.
    const jar = new Map([cookie, cookiesOf(issued)].flatMap((part) => part.split('; ')).filter((pair) => pair !== '').map((pair) => [pair.slice(0, pair.indexOf('=')), pair] as const));
    return { cookie: [...jar.values()].join('; '), 'x-csrf-token': token };
  };

  it('serves a bearer-token request on every POST route without any CSRF cookie or header', async () => {
    const bearer = { authorization: 'Bearer token-for-bob' };
    const turn = await post('/chat/', bearer);
    expect(turn.status).toBe(200);
    expect(((await turn.json()) as Json).answer).toBe('asked by bob');
    const stream = await post('/chat/stream/', bearer);
    expect(stream.status).toBe(200);
    expect(await stream.text()).toContain('"asked by bob"');
    // Past the CSRF check, the confirmation payload itself is what gets refused.
    const confirm = await post('/chat/confirm/', bearer, {});
    expect(confirm.status).toBe(400);
    expect(((await confirm.json()) as Json).error.code).toBe('bad_event');
  });

  it.each([
    ['the host’s session cookie (authenticate returned a bare actor)', 'shop_session=bob'],
    ['a cookie authenticate called one (credential: cookie)', 'shop_remember=bob'],
    ['only the anonymous session cookie', ''],
  ])('refuses %s without the CSRF pair with 403 csrf_failed, and serves it with the pair', async (_, hostCookie) => {
    // The anonymous session starts where its CSRF token is issued; here only its cookie is kept.
    const anonymousSession = (): Promise<string> => transport.send('/chat/csrf/').then((response) => cookiesOf(response).split('; ').filter((cookie) => cookie.startsWith('plumb_session=')).join('; '));
    const session = hostCookie === '' ? await anonymousSession() : hostCookie;
    expect(session).not.toBe('');
    for (const path of ['/chat/', '/chat/stream/', '/chat/confirm/']) {
      const refused = await post(path, { cookie: session });
      expect(refused.status, path).toBe(403);
      expect(((await refused.json()) as Json).error.code).toBe('csrf_failed');
    }
    const served = await post('/chat/', await csrfPair(session));
    expect(served.status).toBe(200);
    expect(((await served.json()) as Json).answer).toBe(hostCookie === '' ? 'asked by anonymous' : 'asked by bob');
  });

  it('answers a wrong bearer token with 401 in Plumb’s error shape', async () => {
    for (const response of [await post('/chat/', { authorization: 'Bearer stolen' }), await transport.send('/chat/threads/', { headers: { authorization: 'Bearer stolen' } })]) {
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ error: { code: 'unauthenticated', message: 'Unknown API token.' } });
    }
  });

  it('refuses a credential that is sent and names no one with 401, never serving it as anonymous', async () => {
    // The host's authenticate knows only Bearer tokens: it returns null for this header.
    const unknownScheme = await post('/chat/', { authorization: 'Token token-for-bob' });
    expect(unknownScheme.status).toBe(401);
    expect(((await unknownScheme.json()) as Json).error.code).toBe('unauthenticated');
    // A sign-in cookie whose signature is not the server's: refused, and the cookie cleared.
    const forged = await transport.send('/chat/threads/', { headers: { cookie: 'plumb_login=alice.forged' } });
    expect(forged.status).toBe(401);
    expect(((await forged.json()) as Json).error.code).toBe('unauthenticated');
    expect(forged.headers.getSetCookie().join('\n')).toMatch(/plumb_login=;.*Max-Age=0/i);
  });

  it('still needs the CSRF pair for the console’s sign-in cookie', async () => {
    const pair = await csrfPair();
    // A body in another shape is refused, never read as signing out ({ actor } is not { user }).
    const misshapen = await post('/console/login', pair, { actor: 'alice' });
    expect(misshapen.status).toBe(400);
    expect(((await misshapen.json()) as Json).error).toMatchObject({ code: 'bad_request', message: expect.stringContaining("Unknown field 'actor'") });
    const login = await post('/console/login', pair, { user: 'alice' });
    expect(login.status).toBe(200);
    const signedIn = `${pair.cookie}; ${cookiesOf(login)}`;
    expect(signedIn).toContain('plumb_login=');
    const refused = await post('/chat/', { cookie: signedIn });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as Json).error.code).toBe('csrf_failed');
    // The pair was the anonymous session's: signed in, the console's page gets one of alice's.
    const stale = await post('/chat/', { cookie: signedIn, 'x-csrf-token': pair['x-csrf-token']! });
    expect(stale.status).toBe(403);
    const served = await post('/chat/', await csrfPair(signedIn));
    expect(((await served.json()) as Json).answer).toBe('asked by alice');
    // A bearer token wins over the sign-in cookie, and needs no pair.
    const bearer = await post('/chat/', { cookie: signedIn, authorization: 'Bearer token-for-bob' });
    expect(((await bearer.json()) as Json).answer).toBe('asked by bob');
  });
});
