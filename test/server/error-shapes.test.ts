import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, startServer } from './harness.js';
import type { Running } from './harness.js';
import { createFakeEngine } from './fake-engine.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are checked field by field
type Json = any;

/** Plumb's one error shape, and nothing else in the body. */
function expectPlumbError(body: Json, code: string): void {
  expect(body).toEqual({ error: { code, message: expect.any(String) } });
}

/** Writes raw bytes to the server and reads the whole answer (the server closes the connection). */
function rawExchange(url: string, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(new URL(url).port), '127.0.0.1');
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('utf8')));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
    socket.write(text);
  });
}

function rawBody(answer: string): Json {
  return JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));
}

describe('every answer in one error shape, never echoing the request', () => {
  let running: Running;
  beforeAll(async () => {
    running = await startServer(createFakeEngine());
  });
  afterAll(async () => running.close());

  it('answers a path that cannot be decoded with 400 bad_url', async () => {
    const response = await fetch(`${running.url}/chat/%`);
    expect(response.status).toBe(400);
    expectPlumbError(await response.json(), 'bad_url');
  });

  it('answers an id longer than any the routes take with 414, without the path', async () => {
    const id = 'x'.repeat(4000);
    const response = await fetch(`${running.url}/chat/threads/${id}`);
    expect(response.status).toBe(414);
    const text = await response.text();
    expect(text).not.toContain('xxxxxxxxxx');
    expectPlumbError(JSON.parse(text), 'uri_too_long');
  });

  it('answers an unknown path without repeating it', async () => {
    const response = await fetch(`${running.url}/nowhere/%3Cscript%3Ealert(1)%3C%2Fscript%3E?q=secret`);
    expect(response.status).toBe(404);
    const text = await response.text();
    expect(text).not.toMatch(/script|secret|nowhere/);
    expectPlumbError(JSON.parse(text), 'not_found');
  });

  it('answers headers over the size limit with 431 in Plumb’s shape', async () => {
    const answer = await rawExchange(running.url, `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 431 /);
    expectPlumbError(rawBody(answer), 'header_too_large');
  });

  it('answers a request that is not HTTP with 400 bad_request in Plumb’s shape', async () => {
    const answer = await rawExchange(running.url, 'GET /\u0001 HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expectPlumbError(rawBody(answer), 'bad_request');
  });

  it('answers a body that is not JSON without quoting it', async () => {
    const response = await fetch(`${running.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query": hunter2' });
    expect(response.status).toBe(400);
    const text = await response.text();
    expect(text).not.toContain('hunter2');
    expectPlumbError(JSON.parse(text), 'bad_request');
  });

  it('answers another content type with 415 unsupported_media_type, without naming it', async () => {
    const response = await fetch(`${running.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/x-hunter2' }, body: 'query' });
    expect(response.status).toBe(415);
    const text = await response.text();
    expect(text).not.toContain('hunter2');
    expectPlumbError(JSON.parse(text), 'unsupported_media_type');
  });

  it('does not repeat a refused language or a refused origin', async () => {
    const client = await new Client(running.url).withCsrf();
    const language = await client.post('/chat/', { text: 'hello', language: 'hunter2' });
    expect(language.status).toBe(400);
    expect(await language.text()).not.toContain('hunter2');
    const origin = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(`${running.url}/chat/`, { headers: { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==', origin: 'https://hunter2.example' } });
      req.once('response', (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.once('error', reject);
      req.end();
    });
    expect(origin.status).toBe(403);
    expect(origin.body).not.toContain('hunter2');
    expectPlumbError(JSON.parse(origin.body), 'origin_not_allowed');
  });

  it.each([
    ['OPTIONS', '/chat/', 'GET, HEAD, POST'],
    ['PUT', '/chat/', 'GET, HEAD, POST'],
    ['GET', '/chat/', 'GET, HEAD, POST'],
    ['GET', '/chat/stream/', 'POST'],
    ['OPTIONS', '/chat/confirm/', 'POST'],
    ['DELETE', '/chat/threads/t1', 'GET, HEAD'],
    ['POST', '/chat/csrf/', 'GET, HEAD'],
    ['GET', '/graphql', 'POST'],
    ['POST', '/healthz', 'GET, HEAD'],
    ['PATCH', '/console/', 'GET, HEAD'],
    ['GET', '/console/login', 'POST'],
  ])('answers %s %s with 405 and Allow: %s', async (method, path, allow) => {
    const response = await fetch(`${running.url}${path}`, { method });
    expect(response.status).toBe(405);
    const header = response.headers.get('allow') ?? '';
    expect(header).toBe(allow);
    // RFC 9110 §10.2.1: a comma-separated list of method tokens.
    expect(header).toMatch(/^[A-Z]+(, [A-Z]+)*$/);
    expectPlumbError(await response.json(), 'method_not_allowed');
  });
});

describe('a server shutting down', () => {
  it('answers a request that arrives while it closes 503 server_closed, in the one shape, and closes the connection', async () => {
    const running = await startServer(createFakeEngine());
    const { port } = new URL(running.url);
    const socket = connect(Number(port), '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    const ended = new Promise((resolve) => socket.once('close', resolve));
    // The request has begun on the connection (so it is not idle) when the server starts to close; its headers end after.
    socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    await new Promise((resolve) => setTimeout(resolve, 100));
    const closed = running.close();
    await new Promise((resolve) => setTimeout(resolve, 100));
    socket.write('\r\n');
    await ended;
    await closed;
    expect(text).toMatch(/^HTTP\/1\.1 503 /);
    expect(text).toMatch(/\r\nconnection: close\r\n/i);
    expectPlumbError(rawBody(text), 'server_closed');
  });
});
