import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeCodes } from '../../src/server/index.js';
import { openSocket, startServer } from './harness.js';
import type { Running } from './harness.js';
import { createFakeEngine } from './fake-engine.js';

describe('chat over WebSocket', () => {
  let running: Running;
  const engine = createFakeEngine();
  beforeAll(async () => {
    running = await startServer(engine, { rateLimit: { requests: 1000 }, websocketMaxBufferedBytes: 256 * 1024 });
  });
  afterAll(async () => running.close());

  it('streams a turn as JSON frames', async () => {
    const { socket, next, frames } = await openSocket(`${running.wsUrl}/chat/`, { headers: { 'x-plumb-user': 'bob' } });
    socket.send(JSON.stringify({ type: 'message', text: 'hello' }));
    await next('done');
    expect(frames.map((frame) => frame.type)).toEqual(['tool_call', 'tool_result', 'text_chunk', 'text_chunk', 'done']);
    socket.close();
  });

  it('leaves an overlapping message to the engine (which queues it on a busy thread) and refuses a malformed frame with bad_event', async () => {
    const { socket, next } = await openSocket(`${running.wsUrl}/chat/`);
    socket.send(JSON.stringify({ type: 'message', text: 'slow turn' }));
    socket.send(JSON.stringify({ type: 'message', text: 'another' }));
    await next('done');
    await next('done');
    socket.send('not json');
    expect(await next('error')).toMatchObject({ code: 'bad_event' });
    socket.send(JSON.stringify({ type: 'shout', text: 'hi' }));
    expect(await next('error')).toMatchObject({ code: 'bad_event' });
    socket.send(JSON.stringify({ type: 'message', text: ' ' }));
    expect(await next('error')).toMatchObject({ code: 'bad_message' });
    socket.close();
  });

  it('answers a frame over bodyLimitBytes with payload_too_large and keeps the socket; one over four times that closes it with 1009', async () => {
    const { socket, next, closed } = await openSocket(`${running.wsUrl}/chat/`);
    socket.send(JSON.stringify({ type: 'message', text: 'a'.repeat(64 * 1024) }));
    expect(await next('error')).toMatchObject({ code: 'payload_too_large', message: expect.stringMatching(/65536 bytes .*bodyLimitBytes/) });
    socket.send(JSON.stringify({ type: 'message', text: 'hello' }));
    await next('done');
    socket.send('a'.repeat(4 * 64 * 1024 + 1));
    expect((await closed).code).toBe(1009);
  });

  it('keeps a pending confirmation answerable while other messages go on, and resolves it on the socket, once', async () => {
    const { socket, next } = await openSocket(`${running.wsUrl}/chat/`, { headers: { 'x-plumb-user': 'alice' } });
    socket.send(JSON.stringify({ type: 'message', text: 'write an order' }));
    const confirm = await next('confirm_mutation');
    socket.send(JSON.stringify({ type: 'message', text: 'something else' }));
    expect(await next('text_chunk')).toMatchObject({ content: 'Echo: ' });
    await next('done');
    socket.send(JSON.stringify({ type: 'confirm', confirmation_id: confirm.id, confirmed: false }));
    expect(await next('text_chunk')).toMatchObject({ content: 'Nothing changed.' });
    await next('done');
    socket.send(JSON.stringify({ type: 'confirm', confirmation_id: confirm.id, confirmed: true }));
    expect(await next('error')).toMatchObject({ code: 'confirmation_unavailable' });
    socket.send(JSON.stringify({ type: 'confirm', confirmation_id: 5 }));
    expect(await next('error')).toMatchObject({ code: 'bad_event' });
    socket.close();
  });

  it('refuses a handshake whose credential names no one with 401, never opening it as anonymous', async () => {
    const opened = await openSocket(`${running.wsUrl}/chat/`, { headers: { authorization: 'Bearer a-token-nobody-issued' } }).catch((error: unknown) => error);
    expect(String(opened)).toMatch(/401/);
  });

  it('refuses a handshake from a foreign origin', async () => {
    const opened = await openSocket(`${running.wsUrl}/chat/`, { origin: 'https://evil.example' }).catch((error: unknown) => error);
    expect(String(opened)).toMatch(/403/);
  });

  it('closes a consumer that does not read with 4008, drops its backlog, and lets the turn finish', async () => {
    const { socket, closed, frames } = await openSocket(`${running.wsUrl}/chat/`);
    // Stop reading: the server's send buffer grows until the bound closes the socket.
    (socket as unknown as { _socket: { pause(): void } })._socket.pause();
    socket.send(JSON.stringify({ type: 'message', text: 'big turn' }));
    setTimeout(() => (socket as unknown as { _socket: { resume(): void } })._socket.resume(), 500).unref();
    const { code } = await closed;
    expect(code).toBe(closeCodes.slowConsumer);
    // 200 chunks of 64 KiB were produced; only what fit under the bound was ever queued.
    expect(frames.length).toBeLessThan(200);
    await expect.poll(() => engine.completedTurns.includes('big')).toBe(true);
  });
});

describe('WebSocket permission and origins', () => {
  let running: Running;
  beforeAll(async () => {
    running = await startServer(createFakeEngine(), {
      allowedOrigins: ['https://app.example'],
      permission: (actor) => actor.kind === 'user',
    });
  });
  afterAll(async () => running.close());

  it('closes a denied actor with 4403', async () => {
    const { closed } = await openSocket(`${running.wsUrl}/chat/`, { origin: 'https://app.example' });
    expect((await closed).code).toBe(4403);
  });

  it('accepts an allowed origin and a permitted actor', async () => {
    const { socket, next } = await openSocket(`${running.wsUrl}/chat/`, { origin: 'https://app.example', headers: { 'x-plumb-user': 'bob' } });
    socket.send(JSON.stringify({ type: 'message', text: 'hello' }));
    expect(await next('done')).toMatchObject({ type: 'done' });
    socket.close();
  });

  it('refuses the server\'s own origin when an allow-list names others', async () => {
    const refused = await openSocket(`${running.wsUrl}/chat/`, { headers: { 'x-plumb-user': 'bob' } }).catch((error: unknown) => error);
    expect(String(refused)).toMatch(/403/);
  });
});

describe('WebSocket keepalive', () => {
  let running: Running;
  beforeAll(async () => {
    running = await startServer(createFakeEngine(), { websocketPingSeconds: 0.05 });
  });
  afterAll(async () => running.close());

  it('pings, and keeps a socket that answers', async () => {
    const { socket, next } = await openSocket(`${running.wsUrl}/chat/`);
    let pings = 0;
    socket.on('ping', () => pings++);
    await expect.poll(() => pings).toBeGreaterThanOrEqual(3);
    socket.send(JSON.stringify({ type: 'message', text: 'hello' }));
    expect(await next('done')).toMatchObject({ type: 'done' });
    socket.close();
  });

  it('terminates a socket that stops answering pings', async () => {
    const { closed } = await openSocket(`${running.wsUrl}/chat/`, { autoPong: false });
    expect((await closed).code).toBe(1006);
  });
});

describe('WebSocket startup failure', () => {
  let running: Running;
  const reported: unknown[] = [];
  beforeAll(async () => {
    running = await startServer(
      createFakeEngine(),
      {
        permission: () => {
          throw new Error('permission backend down');
        },
      },
      { onError: (error) => reported.push(error) },
    );
  });
  afterAll(async () => running.close());

  it('closes with 1011 when the socket fails while starting, and reports the failure', async () => {
    const { closed } = await openSocket(`${running.wsUrl}/chat/`);
    expect((await closed).code).toBe(1011);
    expect(reported.some((error) => error instanceof Error && error.message === 'permission backend down')).toBe(true);
  });
});
