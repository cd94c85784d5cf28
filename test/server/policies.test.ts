import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAudit, createMemoryRateLimitStore, createRateLimiter, createSigner, csrfTokenValid, issueCsrfToken, originAllowed, redact } from '../../src/server/index.js';
import type { AuditRecord } from '../../src/server/index.js';
import { Client, openSocket, startServer } from './harness.js';
import type { Running } from './harness.js';
import { createFakeEngine } from './fake-engine.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are checked field by field
type Json = any;

describe('rate limits', () => {
  it('lets exactly N of N+k concurrent requests through a budget of N', async () => {
    const limiter = createRateLimiter({ requests: 25, windowSeconds: 60, tokens: null, inputTokens: null, outputTokens: null }, createMemoryRateLimitStore(), () => 1_000);
    const decisions = await Promise.all(Array.from({ length: 40 }, () => limiter.takeRequest('user:alice')));
    expect(decisions.filter((decision) => decision.allowed)).toHaveLength(25);
  });

  it('answers retry_after_seconds as the time until the window frees, not the whole window', async () => {
    let now = 0;
    const limiter = createRateLimiter({ requests: 1, windowSeconds: 3600, tokens: null, inputTokens: null, outputTokens: null }, createMemoryRateLimitStore(), () => now);
    expect((await limiter.takeRequest('s')).allowed).toBe(true);
    now = 3_000_000;
    expect(await limiter.takeRequest('s')).toEqual({ allowed: false, retryAfterSeconds: 600, budget: 'requests' });
    now = 3_600_000;
    expect((await limiter.takeRequest('s')).allowed).toBe(true);
  });

  it.each([null, 0, -5])('sets no budget for %s', async (requests) => {
    const limiter = createRateLimiter({ requests, windowSeconds: 60, tokens: requests, inputTokens: null, outputTokens: null }, createMemoryRateLimitStore());
    await limiter.recordUsage('s', { inputTokens: 1e9, outputTokens: 1e9 });
    const decisions = await Promise.all(Array.from({ length: 100 }, () => limiter.takeRequest('s')));
    expect(decisions.every((decision) => decision.allowed)).toBe(true);
    expect((await limiter.checkTokens('s')).allowed).toBe(true);
  });

  it('refuses once recorded token usage reaches a budget', async () => {
    const limiter = createRateLimiter({ requests: null, windowSeconds: 60, tokens: null, inputTokens: null, outputTokens: 100 }, createMemoryRateLimitStore(), () => 0);
    await limiter.recordUsage('s', { inputTokens: 500, outputTokens: 60 });
    expect((await limiter.checkTokens('s')).allowed).toBe(true);
    await limiter.recordUsage('s', { inputTokens: 0, outputTokens: 40 });
    expect(await limiter.checkTokens('s')).toMatchObject({ allowed: false, budget: 'output_tokens', retryAfterSeconds: 60 });
  });

  it('keeps a bounded number of counters', async () => {
    const store = createMemoryRateLimitStore({ maxKeys: 10 });
    for (let i = 0; i < 100; i++) await store.take(`k${i}`, { amount: 1, limit: 5, windowMs: 1000, now: 0 });
    expect((await store.peek('k99', { windowMs: 1000, now: 0 })).used).toBe(1);
    expect((await store.peek('k0', { windowMs: 1000, now: 0 })).used).toBe(0);
  });
});

describe('rate limits, permission and audit over HTTP', () => {
  let running: Running;
  const records: AuditRecord[] = [];
  beforeAll(async () => {
    running = await startServer(
      createFakeEngine(),
      {
        rateLimit: { requests: 5, windowSeconds: 3600, outputTokens: 50 },
        permission: (actor) => !(actor.kind === 'user' && actor.id === 'bob'),
        audit: { enabled: true, level: 'all', maxResultSize: 120 },
      },
      { audit: { logger: (record) => records.push(record) } },
    );
  });
  afterAll(async () => running.close());

  it('refuses a denied actor with 403 before any chat event', async () => {
    const bob = await new Client(running.url, { 'x-plumb-user': 'bob' }).withCsrf();
    for (const path of ['/chat/', '/chat/stream/']) {
      const response = await bob.post(path, { text: 'hello' });
      expect(response.status).toBe(403);
      expect(((await response.json()) as Json).error.code).toBe('permission_denied');
    }
    expect((await bob.fetch('/chat/threads/')).status).toBe(403);
  });

  it('lets exactly the budget through under concurrency, then answers rate_limited with retry_after_seconds', async () => {
    const alice = await new Client(running.url, { 'x-plumb-user': 'alice' }).withCsrf();
    const responses = await Promise.all(Array.from({ length: 9 }, () => alice.post('/chat/', { text: 'hello' })));
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429, 429, 429]);
    const refused = (await responses.find((response) => response.status === 429)!.json()) as Json;
    expect(refused.events[0]).toMatchObject({ type: 'error', code: 'rate_limited', retry_after_seconds: expect.any(Number) });
    expect(refused.events[0].retry_after_seconds).toBeGreaterThan(3500);

    const events = await (await alice.post('/chat/stream/', { text: 'hello' })).text();
    expect(events).toMatch(/"code":"rate_limited"/);
    const { socket, next } = await openSocket(`${running.wsUrl}/chat/`, { headers: { 'x-plumb-user': 'alice' } });
    socket.send(JSON.stringify({ type: 'message', text: 'hello' }));
    expect(await next('error')).toMatchObject({ code: 'rate_limited' });
    socket.close();
  });

  it('refuses the next turn once reported output tokens exhaust the token budget', async () => {
    const visitor = await new Client(running.url).withCsrf();
    expect((await visitor.post('/chat/', { text: 'usage 60' })).status).toBe(200);
    const refused = await visitor.post('/chat/', { text: 'hello' });
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as Json).events[0].message).toMatch(/output_tokens/);
  });

  it('audits messages and tools with secrets redacted and results truncated', () => {
    const kinds = new Set(records.map((record) => record.event));
    expect(kinds).toEqual(new Set(['chat_message', 'tool_call', 'tool_result']));
    const call = records.find((record) => record.event === 'tool_call')!;
    expect(call.args).toEqual({ manager: 'Order', api_key: '[redacted]' });
    const result = records.find((record) => record.event === 'tool_result')!;
    expect(result.truncated).toBe(true);
    expect(String(result.result)).toHaveLength(120);
    expect(String(result.result)).toContain('"token":"[redacted]"');
    expect(records.some((record) => record.event === 'chat_message' && record.role === 'assistant' && record.text === 'Echo: hello')).toBe(true);
    expect(JSON.stringify(records)).not.toMatch(/k-123|abc"/);
  });
});

describe('audit levels', () => {
  const run = (level: 'off' | 'messages' | 'all', enabled = true): AuditRecord[] => {
    const seen: AuditRecord[] = [];
    const audit = createAudit({ enabled, level, logger: (record) => seen.push(record), maxResultSize: 10, redactFields: ['password'] });
    const actor = { kind: 'anonymous' as const };
    audit.message({ transport: 'http', actor, role: 'user', text: 'hi' });
    audit.tool({ transport: 'http', actor, kind: 'tool_call', id: '1', name: 'query', payload: { password: 'p' } });
    return seen;
  };
  it('emits nothing when off or disabled, messages only at messages, everything at all', () => {
    expect(run('off')).toHaveLength(0);
    expect(run('all', false)).toHaveLength(0);
    expect(run('messages').map((record) => record.event)).toEqual(['chat_message']);
    expect(run('all').map((record) => record.event)).toEqual(['chat_message', 'tool_call']);
  });

  it('redacts recursively, inside arrays too, case-insensitively', () => {
    expect(redact({ a: [{ Password: 1, nested: { apiKey: 'x', ok: 2 } }] }, ['password', 'key'])).toEqual({ a: [{ Password: '[redacted]', nested: { apiKey: '[redacted]', ok: 2 } }] });
  });

  it('writes JSON lines through pino by default', () => {
    let out = '';
    const destination = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        out += chunk.toString('utf8');
        callback();
      },
    });
    const audit = createAudit({ enabled: true, level: 'messages', maxResultSize: 10, redactFields: [], destination });
    audit.message({ transport: 'websocket', actor: { kind: 'user', id: 'alice', roles: [] }, role: 'user', text: 'hello' });
    const line = JSON.parse(out.trim());
    expect(line).toMatchObject({ event: 'chat_message', actor: 'user:alice', text: 'hello', transport: 'websocket' });
  });
});

describe('signed values, CSRF and origins', () => {
  const signer = createSigner('s'.repeat(32));
  it('accepts only its own signatures', () => {
    const signed = signer.sign('alice');
    expect(signer.unsign(signed)).toBe('alice');
    expect(signer.unsign(signed.replace('alice', 'mallo'))).toBeUndefined();
    expect(createSigner('t'.repeat(32)).unsign(signed)).toBeUndefined();
  });
  it('keeps refusing a forged value after the genuine one was verified, and still accepts the genuine one', () => {
    const signed = signer.sign('bob');
    expect(signer.unsign(signed)).toBe('bob');
    const forged = `${signed.slice(0, signed.lastIndexOf('.'))}.${'A'.repeat(43)}`;
    expect(signer.unsign(forged)).toBeUndefined();
    expect(signer.unsign(forged)).toBeUndefined();
    expect(signer.unsign(signed)).toBe('bob');
  });
  it('requires the cookie and the header to carry the same token, issued to this session', () => {
    const session = { kind: 'anonymous' as const, sessionKey: 'k1' };
    const token = issueCsrfToken(signer, session)!;
    expect(csrfTokenValid(signer, session, token, token)).toBe(true);
    expect(csrfTokenValid(signer, session, token, undefined)).toBe(false);
    expect(csrfTokenValid(signer, session, 'a.b', 'a.b')).toBe(false);
    expect(csrfTokenValid(signer, { kind: 'anonymous', sessionKey: 'k2' }, token, token)).toBe(false);
    expect(csrfTokenValid(signer, { kind: 'anonymous' }, token, token)).toBe(false);
    expect(issueCsrfToken(signer, { kind: 'anonymous' })).toBeUndefined();
  });
  it.each([
    ['http://localhost:8787', 'localhost:8787', null, true],
    ['http://evil.example', 'localhost:8787', null, false],
    [undefined, 'localhost:8787', null, false],
    ['https://app.example', 'localhost:8787', ['https://app.example'], true],
    ['http://localhost:8787', 'localhost:8787', ['https://app.example'], false],
    [undefined, 'x', ['*'], true],
  ])('origin %s to host %s with %j → %s', (origin, host, list, expected) => {
    expect(originAllowed(origin, host, list)).toBe(expected);
  });
});
