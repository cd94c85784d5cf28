import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, openSocket, readSse } from './harness.js';
import { alice, bob, readEvents, startThreadKit } from './thread-kit.js';
import type { ThreadKit } from './thread-kit.js';

describe('stop and retry over HTTP, SSE and WebSocket', () => {
  let kit: ThreadKit;
  beforeAll(async () => {
    kit = await startThreadKit();
  });
  afterAll(async () => {
    await kit?.close();
  });

  const asAlice = (): Promise<Client> => new Client(kit.url, alice).withCsrf();

  /** Starts a `slow` turn over SSE and waits for its first text: the turn is running. */
  async function slowTurn(client: Client, text = 'slow please'): Promise<{ thread: string; turn: string; rest: Promise<Record<string, unknown>[]> }> {
    const response = await client.post('/chat/stream/', { text, new_thread: true });
    const seen: Record<string, unknown>[] = [];
    let resolveFirst: () => void = () => undefined;
    const first = new Promise<void>((resolve) => (resolveFirst = resolve));
    const rest = readEvents(response, (events) => {
      seen.splice(0, seen.length, ...events);
      if (events.some((event) => event.type === 'text_chunk')) resolveFirst();
      return events.some((event) => event.type === 'done' || event.type === 'error');
    });
    await Promise.race([first, rest]);
    const chunk = seen.find((event) => event.type === 'text_chunk')!;
    return { thread: String(chunk.thread_id), turn: String(chunk.turn_id), rest };
  }

  it('stops a running turn with POST /chat/cancel/, and retries it with POST /chat/retry/ to its end', async () => {
    const client = await asAlice();
    const { thread, turn, rest } = await slowTurn(client, 'stop me once1');
    const cancelled = await client.post('/chat/cancel/', { thread });
    expect(cancelled.status).toBe(200);
    expect(await cancelled.json()).toEqual({ thread, turn: { id: turn, status: 'cancelled', failure_code: 'cancelled' } });
    expect((await rest).at(-1)).toMatchObject({ type: 'error', code: 'cancelled', turn_id: turn });
    // Nothing more to stop.
    expect(await (await client.post('/chat/cancel/', { thread, mode: 'graceful' })).json()).toEqual({ thread, turn: null });

    const retried = await readSse(await client.post('/chat/retry/', { thread }));
    expect(retried.at(-1)).toMatchObject({ type: 'done', turn_id: turn });
    expect(retried.filter((event) => event.type === 'text_chunk').map((event) => event.content).join('')).toBe('Quick now.');
    const items = (await (await client.fetch(`/chat/threads/${thread}`)).json()) as { items: { kind: string }[] };
    expect(items.items.filter((item) => item.kind === 'user_text')).toHaveLength(1);
    // A completed turn is not retried: the refusal says why.
    const again = await readSse(await client.post('/chat/retry/', { turn }));
    expect(again).toEqual([expect.objectContaining({ type: 'error', code: 'not_retryable', reason: 'completed' })]);
  });

  it("refuses to retry a turn whose write's outcome is unknown, with the reason, over HTTP and WebSocket", async () => {
    const client = await asAlice();
    const response = await client.post('/chat/stream/', { text: 'touch part 1', new_thread: true });
    const started = await readEvents(response, (events) => events.some((event) => event.type === 'tool_call'));
    const thread = String(started[0]!.thread_id);
    const turn = String(started[0]!.turn_id);
    const cancelled = (await (await client.post('/chat/cancel/', { thread })).json()) as { turn: { status: string; failure_code: string } };
    expect(cancelled.turn).toMatchObject({ status: 'cancelled', failure_code: 'effect_outcome_unknown' });
    const refused = await readSse(await client.post('/chat/retry/', { thread }));
    expect(refused).toEqual([expect.objectContaining({ type: 'error', code: 'not_retryable', reason: 'effect_outcome_unknown', turn_id: turn })]);

    const ws = await openSocket(`${kit.running.wsUrl}/chat/`, { headers: { ...alice, cookie: client.cookieHeader() } });
    ws.socket.send(JSON.stringify({ type: 'retry', turn }));
    expect(await ws.next('error')).toMatchObject({ code: 'not_retryable', reason: 'effect_outcome_unknown' });
    ws.socket.close();
  });

  it("answers another actor's thread and turn as not found, and a malformed request as bad_request", async () => {
    const client = await asAlice();
    const { thread, turn, rest } = await slowTurn(client);
    const mallory = await new Client(kit.url, bob).withCsrf();
    expect((await mallory.post('/chat/cancel/', { thread })).status).toBe(404);
    expect((await mallory.post('/chat/retry/', { thread })).status).toBe(404);
    const byTurn = await readSse(await mallory.post('/chat/retry/', { turn }));
    expect(byTurn).toEqual([expect.objectContaining({ type: 'error', code: 'turn_not_found' })]);
    expect((await client.post('/chat/cancel/', { thread, mode: 'now' })).status).toBe(400);
    expect((await client.post('/chat/retry/', {})).status).toBe(400);
    // The turn ran on: another actor stopped nothing.
    expect((await client.post('/chat/cancel/', { thread })).status).toBe(200);
    await rest;
  });

  it('stops the socket’s own running turn with a cancel frame and retries it with a retry frame', async () => {
    const client = await asAlice();
    const ws = await openSocket(`${kit.running.wsUrl}/chat/`, { headers: { ...alice, cookie: client.cookieHeader() } });
    ws.socket.send(JSON.stringify({ type: 'message', text: 'over the socket once2', new_thread: true }));
    const chunk = await ws.next('text_chunk');
    ws.socket.send(JSON.stringify({ type: 'cancel' }));
    expect(await ws.next('cancel_result')).toEqual({ type: 'cancel_result', thread_id: chunk.thread_id, turn: { id: chunk.turn_id, status: 'cancelled', failure_code: 'cancelled' } });
    // The turn settled before the cancel was answered: its own stream ended first.
    expect(ws.frames).toContainEqual(expect.objectContaining({ type: 'error', code: 'cancelled', turn_id: chunk.turn_id }));
    ws.socket.send(JSON.stringify({ type: 'retry' }));
    expect(await ws.next('done')).toMatchObject({ turn_id: chunk.turn_id });
    ws.socket.send(JSON.stringify({ type: 'cancel', thread: 'not-a-thread-of-yours' }));
    expect(await ws.next('error')).toMatchObject({ code: 'thread_not_found' });
    ws.socket.close();
  });

  it('regenerates the latest completed answer with POST /chat/retry/ and regenerate: true, keeping the old one as a superseded run; bad input has its code', async () => {
    const client = await asAlice();
    const first = await readSse(await client.post('/chat/stream/', { text: 'regen this answer', new_thread: true }));
    const thread = String(first.at(-1)!.thread_id);
    const turn = String(first.at(-1)!.turn_id);
    expect(first.filter((event) => event.type === 'text_chunk').map((event) => event.content).join('')).toBe('First take.');
    expect((await client.post('/chat/retry/', { thread, regenerate: 'yes' })).status).toBe(400);
    const again = await readSse(await client.post('/chat/retry/', { thread, regenerate: true }));
    expect(again.at(-1)).toMatchObject({ type: 'done', turn_id: turn });
    expect(again.filter((event) => event.type === 'text_chunk').map((event) => event.content).join('')).toBe('Second take.');
    const { items } = (await (await client.fetch(`/chat/threads/${thread}`)).json()) as { items: { kind: string; ordinal: number; data: { text?: string; reason?: string } }[] };
    const mark = items.find((item) => item.kind === 'retry_marker' && item.data.reason === 'regenerate')!;
    expect(items.filter((item) => item.kind === 'assistant_text').map((item) => [item.data.text, item.ordinal < mark.ordinal])).toEqual([['First take.', true], ['Second take.', false]]);
    await readSse(await client.post('/chat/stream/', { thread, text: 'and a later one' }));
    expect(await readSse(await client.post('/chat/retry/', { turn, regenerate: true }))).toEqual([expect.objectContaining({ type: 'error', code: 'not_regenerable', reason: 'not_latest', turn_id: turn })]);
  });

  it('regenerates over a WebSocket: a write its answer ran waits for a new confirmation; a running turn is not_regenerable', async () => {
    const client = await asAlice();
    const ws = await openSocket(`${kit.running.wsUrl}/chat/`, { headers: { ...alice, cookie: client.cookieHeader() } });
    ws.socket.send(JSON.stringify({ type: 'message', text: 'create a gear', new_thread: true }));
    const asked = await ws.next('confirm_mutation');
    ws.socket.send(JSON.stringify({ type: 'confirm', confirmation_id: asked.id, confirmed: true }));
    expect(await ws.next('done')).toMatchObject({ turn_id: asked.turn_id });
    ws.socket.send(JSON.stringify({ type: 'retry', turn: asked.turn_id, regenerate: 1 }));
    expect(await ws.next('error')).toMatchObject({ code: 'bad_event' });
    ws.socket.send(JSON.stringify({ type: 'retry', turn: asked.turn_id, regenerate: true }));
    const again = await ws.next('confirm_mutation');
    expect(again).toMatchObject({ turn_id: asked.turn_id, mutation: 'create_part', input: { name: 'Gear' } });
    expect(again.id).not.toBe(asked.id);
    expect(await kit.store.getTurn(String(asked.turn_id))).toMatchObject({ status: 'waiting' });
    ws.socket.send(JSON.stringify({ type: 'retry', turn: asked.turn_id, regenerate: true }));
    expect(await ws.next('error')).toMatchObject({ code: 'not_regenerable', reason: 'active' });
    ws.socket.send(JSON.stringify({ type: 'cancel' }));
    expect(await ws.next('cancel_result')).toMatchObject({ turn: { id: asked.turn_id, status: 'cancelled' } });
    ws.socket.close();
  });

  it('retries a turn that failed with a provider error, graceful cancel ending a running turn too', async () => {
    const client = await asAlice();
    const failed = await readSse(await client.post('/chat/stream/', { text: 'flaky question', new_thread: true }));
    expect(failed.at(-1)).toMatchObject({ type: 'error', code: 'provider_unavailable' });
    const retried = await readSse(await client.post('/chat/retry/', { turn: failed.at(-1)!.turn_id }, { 'idempotency-key': 'retry-flaky-1' }));
    expect(retried.at(-1)).toMatchObject({ type: 'done' });
    // The same request key again replays the retry instead of running it twice.
    const replayed = await readSse(await client.post('/chat/retry/', { turn: failed.at(-1)!.turn_id }, { 'idempotency-key': 'retry-flaky-1' }));
    expect(replayed.at(-1)).toMatchObject({ type: 'done' });
    const { thread, rest } = await slowTurn(client);
    const graceful = (await (await client.post('/chat/cancel/', { thread, mode: 'graceful' })).json()) as { turn: { status: string } };
    expect(graceful.turn.status).toBe('cancelled');
    expect((await rest).at(-1)).toMatchObject({ type: 'error', code: 'cancelled' });
  });
});
