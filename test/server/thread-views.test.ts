import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, openSocket, readSse, startServer } from './harness.js';
import { alice, bob, readEvents, startThreadKit } from './thread-kit.js';
import type { ThreadKit } from './thread-kit.js';
import { userActor } from '../../src/core/index.js';
import { readSseRecords } from '../support/sse.js';
import type { SseRecord } from '../support/sse.js';

type Event = Record<string, unknown>;
const itemOf = (event: Event): { ordinal: number; kind: string; id: string; data: Record<string, unknown> } => event.item as never;
const items = (events: readonly Event[]): Event[] => events.filter((event) => event.type === 'item');

describe('live thread views over SSE and WebSocket', () => {
  let kit: ThreadKit;
  let client: Client;
  beforeAll(async () => {
    kit = await startThreadKit({ viewsPerSocket: 2 });
    client = await new Client(kit.url, alice).withCsrf();
  });
  afterAll(async () => {
    await kit?.close();
  });

  /** A thread of alice's with one finished turn. */
  async function thread(): Promise<string> {
    const events = await readSse(await client.post('/chat/stream/', { text: 'hello', new_thread: true }));
    return String(events.at(-1)!.thread_id);
  }

  const view = (threadId: string, headers: Record<string, string> = {}, query = ''): Promise<Response> => client.fetch(`/chat/threads/${threadId}/view/${query}`, { headers });

  it('shows a turn another client runs as it streams: the view, then each item with its seq, the drafts before the answer, and the turn ending', async () => {
    const threadId = await thread();
    const response = await view(threadId);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const watched = readEvents(response, (events) => events.some((event) => event.type === 'turn' && event.status === 'completed'));
    // The view is open before the turn starts: wait for its first event.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const turn = await readSse(await client.post('/chat/stream/', { text: 'which parts are made of steel?', thread: threadId }));
    expect(turn.at(-1)).toMatchObject({ type: 'done' });
    const seen = await watched;
    expect(seen[0]).toMatchObject({ type: 'view', thread_id: threadId, seq: '2', ordinal: 2, turn: { status: 'completed' }, confirmation: null, question: null, queue: [] });
    const shown = items(seen);
    const ordinals = shown.map((event) => itemOf(event).ordinal);
    expect(ordinals).toEqual(ordinals.map((_, index) => 3 + index));
    expect(shown.map((event) => event.seq)).toEqual(ordinals.map(String));
    const kinds = shown.map((event) => itemOf(event).kind);
    expect(kinds[0]).toBe('user_text');
    expect(kinds.at(-1)).toBe('assistant_text');
    expect(kinds.filter((kind) => kind === 'text_draft').length).toBeGreaterThanOrEqual(2);
    const drafts = shown.filter((event) => itemOf(event).kind === 'text_draft').map((event) => String(itemOf(event).data.text)).join('');
    expect(`${String(itemOf(shown.at(-1)!).data.text)}`.startsWith(drafts)).toBe(true);
    const journal = (await (await client.fetch(`/chat/threads/${threadId}`)).json()) as { items: { id: string }[] };
    expect(shown.map((event) => itemOf(event).id)).toEqual(journal.items.slice(2).map((item) => item.id));
  });

  it('shows a stop as stopping: the view says so while the turn has not ended, the stop mark arrives as an item before the turn ends', async () => {
    const threadId = await thread();
    const response = await view(threadId);
    const watched = readEvents(response, (events) => events.some((event) => event.type === 'turn' && event.status === 'cancelled'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const turn = await client.post('/chat/stream/', { text: 'slow please', thread: threadId });
    const running = readEvents(turn, (events) => events.some((event) => event.type === 'text_chunk'));
    await running;
    // The stop lands in the journal before the turn ends; a view opened meanwhile starts stopping.
    const stopping = (async () => {
      for (let i = 0; i < 200; i++) {
        const state = await kit.engine.threads.state({ actor: userActor('alice', []), threadId });
        if (state.stopping !== null) return state;
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
      return undefined;
    })();
    const cancelled = await client.post('/chat/cancel/', { thread: threadId, mode: 'graceful' });
    expect(cancelled.status).toBe(200);
    expect((await stopping)?.stopping).toMatchObject({ mode: 'graceful' });
    const seen = await watched;
    expect(seen[0]).toMatchObject({ type: 'view', stopping: null });
    const mark = items(seen).find((event) => itemOf(event).kind === 'retry_marker' && itemOf(event).data.reason === 'stop');
    expect(mark).toBeDefined();
    expect(itemOf(mark!).data).toMatchObject({ mode: 'graceful', requestedAt: expect.any(Number) });
    expect(seen.indexOf(mark!)).toBeLessThan(seen.findIndex((event) => event.type === 'turn' && event.status === 'cancelled'));
    const after = await readEvents(await view(threadId), (events) => events.some((event) => event.type === 'view'));
    expect(after.at(-1)).toMatchObject({ type: 'view', stopping: null, turn: { status: 'cancelled' } });
  });

  it('replays from the journal what a resumed view missed (Last-Event-ID or after), and answers a gap it cannot replay with resubscribe and a fresh view', async () => {
    const threadId = await thread();
    for (const text of ['one', 'two', 'three']) await readSse(await client.post('/chat/stream/', { text, thread: threadId }));
    const resumed = await readEvents(await view(threadId, { 'last-event-id': '3' }), (events) => events.some((event) => event.type === 'view'));
    expect(items(resumed).map((event) => itemOf(event).ordinal)).toEqual([4, 5, 6, 7, 8]);
    expect(resumed.at(-1)).toMatchObject({ type: 'view', seq: '8', ordinal: 8 });
    const byQuery = await readEvents(await view(threadId, {}, '?after=6'), (events) => events.some((event) => event.type === 'view'));
    expect(items(byQuery).map((event) => event.seq)).toEqual(['7', '8']);
    const gap = await readEvents(await view(threadId, {}, '?after=99'), (events) => events.length > 0);
    expect(gap[0]).toMatchObject({ type: 'resubscribe', reason: 'gap', seq: '8', view: { ordinal: 8, thread: { id: threadId } } });
    expect((await view(threadId, {}, '?after=-1')).status).toBe(400);
  });

  it('refuses a seq or cursor that is not plain digits (1e3, 0x10, " 5", 5.0) with a coded 400, on every route and on the socket', async () => {
    const threadId = await thread();
    for (const odd of ['1e3', '0x10', ' 5', '5.0']) {
      const query = `?after=${encodeURIComponent(odd)}`;
      // (A header's leading space is HTTP's own to drop: ' 5' is tried in the query only.)
      const byHeader = odd.trim() === odd ? [await view(threadId, { 'last-event-id': odd })] : [];
      for (const response of [await view(threadId, {}, query), ...byHeader, await client.fetch(`/chat/threads/${threadId}/follow/${query}`), await client.fetch(`/chat/threads/${threadId}/items/${query}`)]) {
        expect(response.status, `${response.url} ${odd}`).toBe(400);
        expect(((await response.json()) as { error: { code: string } }).error.code).toMatch(/^bad_(request|cursor)$/);
      }
    }
    const ws = await openSocket(`${kit.running.wsUrl}/chat/`, { headers: { ...alice, cookie: client.cookieHeader() } });
    for (const after of ['1e3', '0x10', ' 5', 1.5]) {
      ws.socket.send(JSON.stringify({ type: 'subscribe', thread: threadId, after }));
      expect(await ws.next('error')).toMatchObject({ code: 'bad_event' });
    }
    ws.socket.close();
  });

  it("answers another actor's thread, and an unknown one, as not found", async () => {
    const threadId = await thread();
    expect((await new Client(kit.url, bob).fetch(`/chat/threads/${threadId}/view/`)).status).toBe(404);
    expect((await new Client(kit.url).fetch(`/chat/threads/${threadId}/view/`)).status).toBe(404);
    expect((await view('no-such-thread')).status).toBe(404);
  });

  it('gives a fresh view the running turn with the text shown so far, and a waiting turn with its confirmation', async () => {
    const started = await client.post('/chat/stream/', { text: 'slow answer please', new_thread: true });
    const first = await readEvents(started, (events) => events.some((event) => event.type === 'text_chunk'));
    const threadId = String(first[0]!.thread_id);
    const [running] = await readEvents(await view(threadId), (events) => events.length > 0);
    // Active: `accepted` until its first step commits, `running` after.
    expect(running).toMatchObject({ type: 'view', turn: { input: 'slow answer please' }, confirmation: null });
    expect(['accepted', 'running']).toContain((running!.turn as { status: string }).status);
    expect(String(running!.text)).toMatch(/^word0 /);
    await client.post('/chat/cancel/', { thread: threadId });

    const held = await readSse(await client.post('/chat/stream/', { text: 'create a gear', new_thread: true }));
    const confirm = held.find((event) => event.type === 'confirm_mutation')!;
    const [waiting] = await readEvents(await view(String(confirm.thread_id)), (events) => events.length > 0);
    expect(waiting).toMatchObject({ type: 'view', turn: { status: 'waiting' }, confirmation: { id: confirm.id, mutation: 'create_part', input: { name: 'Gear' }, expires_at: confirm.expires_at }, text: '' });
    // Answered elsewhere, the view sees the confirmation resolved and the turn end.
    const watched = readEvents(await view(String(confirm.thread_id), { 'last-event-id': String(waiting!.seq) }), (events) => events.some((event) => event.type === 'turn' && event.status === 'completed'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    await client.post('/chat/confirm/', { confirmation_id: confirm.id, confirmed: true });
    const after = await watched;
    expect(items(after).map((event) => itemOf(event).kind)).toEqual(expect.arrayContaining(['confirmation_resolution', 'tool_result', 'assistant_text']));
  });

  it('subscribes a socket to threads with subscribe frames: a view, then the items with their seq, until unsubscribe; at most viewsPerSocket at once', async () => {
    const threadId = await thread();
    const ws = await openSocket(`${kit.running.wsUrl}/chat/`, { headers: { ...alice, cookie: client.cookieHeader() } });
    ws.socket.send(JSON.stringify({ type: 'subscribe', thread: threadId, after: '1' }));
    expect(await ws.next('item')).toMatchObject({ seq: '2', thread_id: threadId });
    expect(await ws.next('view')).toMatchObject({ seq: '2', thread_id: threadId, turn: { status: 'completed' } });
    await readSse(await client.post('/chat/stream/', { text: 'again', thread: threadId }));
    expect(await ws.next('item')).toMatchObject({ seq: '3', item: { kind: 'user_text', data: { text: 'again' } } });
    expect(await ws.next('turn')).toMatchObject({ seq: '3', thread_id: threadId, status: 'accepted' });
    ws.socket.send(JSON.stringify({ type: 'subscribe', thread: await thread() }));
    await ws.next('view');
    ws.socket.send(JSON.stringify({ type: 'subscribe', thread: await thread() }));
    expect(await ws.next('error')).toMatchObject({ code: 'too_many_subscriptions' });
    ws.socket.send(JSON.stringify({ type: 'subscribe', thread: 'not-yours' }));
    expect(await ws.next('error')).toMatchObject({ code: 'thread_not_found' });
    ws.socket.send(JSON.stringify({ type: 'unsubscribe', thread: threadId }));
    const before = ws.frames.length;
    await readSse(await client.post('/chat/stream/', { text: 'unseen', thread: threadId }));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(ws.frames.slice(before).filter((frame) => frame.thread_id === threadId)).toEqual([]);
    // The socket's own turns carry no seq; its subscriptions' events all do.
    ws.socket.send(JSON.stringify({ type: 'message', text: 'mine', new_thread: true }));
    await ws.next('done');
    expect(ws.frames.filter((frame) => frame.type === 'text_chunk').every((frame) => frame.seq === undefined)).toBe(true);
    ws.socket.close();
  });

  it('ends the SSE view, the follow stream and a socket subscription of a deleted thread with thread_deleted, and nothing after it', async () => {
    const threadId = await thread();
    /** The stream's records until it ends by itself: the server closed it. */
    const untilEnd = (response: Response): Promise<SseRecord[]> => readSseRecords(response.body!, () => false);
    const viewResponse = await view(threadId);
    const followResponse = await client.fetch(`/chat/threads/${threadId}/follow/?after=2`);
    expect([viewResponse.status, followResponse.status]).toEqual([200, 200]);
    const viewed = untilEnd(viewResponse);
    const followed = untilEnd(followResponse);
    const ws = await openSocket(`${kit.running.wsUrl}/chat/`, { headers: { ...alice, cookie: client.cookieHeader() } });
    ws.socket.send(JSON.stringify({ type: 'subscribe', thread: threadId }));
    await ws.next('view');
    expect(await (await client.post(`/chat/threads/${threadId}/delete/`, {})).json()).toEqual({ deleted: true });
    expect(await ws.next('thread_deleted')).toEqual({ type: 'thread_deleted', seq: '2', thread_id: threadId });
    const viewEvents = (await viewed).map((record) => record.data);
    expect(viewEvents.map((event) => event.type)).toEqual(['view', 'thread_deleted']);
    expect(viewEvents[1]).toEqual({ type: 'thread_deleted', seq: '2', thread_id: threadId });
    expect(await followed).toEqual([{ event: 'thread_deleted', data: { thread_id: threadId } }]);
    // The socket stays open, its subscription ended: the thread is not found any more.
    ws.socket.send(JSON.stringify({ type: 'subscribe', thread: threadId }));
    expect(await ws.next('error')).toMatchObject({ code: 'thread_not_found' });
    expect(ws.frames.filter((frame) => frame.thread_id === threadId && frame.seq !== undefined).map((frame) => frame.type)).toEqual(['view', 'thread_deleted']);
    ws.socket.close();
  });

  it("names each event's and item's run and the latest run's phase: SSE turn events, views over SSE and a socket, and items pages", async () => {
    const threadId = await thread();
    const watched = readEvents(await view(threadId), (events) => events.some((event) => event.type === 'phase' && event.phase === 'awaiting_approval'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const held = await readSse(await client.post('/chat/stream/', { text: 'create a gear', thread: threadId }));
    const turnId = String(held.at(-1)!.turn_id);
    const run1 = `${turnId}.r1`;
    expect(held.every((event) => event.run_id === run1)).toBe(true);
    const seen = await watched;
    const turnItems = items(seen).filter((event) => event.turn_id === turnId);
    expect(turnItems.length).toBeGreaterThan(0);
    expect(turnItems.every((event) => event.run_id === run1 && (event.item as { runId: string }).runId === run1)).toBe(true);
    // A phase goes out on a change only: no two in a row alike, ending where the turn waits.
    const phases = seen.filter((event) => event.type === 'phase').map((event) => event.phase);
    expect(phases.every((phase, index) => index === 0 || phase !== phases[index - 1])).toBe(true);
    expect(phases).toEqual(expect.arrayContaining(['running_tool', 'awaiting_approval']));
    expect(seen.filter((event) => event.type === 'phase').every((event) => event.turn_id === turnId && event.run_id === run1)).toBe(true);

    const ws = await openSocket(`${kit.running.wsUrl}/chat/`, { headers: { ...alice, cookie: client.cookieHeader() } });
    ws.socket.send(JSON.stringify({ type: 'subscribe', thread: threadId }));
    const confirm = held.find((event) => event.type === 'confirm_mutation')!;
    expect(await ws.next('view')).toMatchObject({ phase: 'awaiting_approval', turn: { id: turnId, run_id: run1, status: 'waiting', projection: { outcome: null, ended_at: null, answer_item_ids: [] } }, confirmation: { id: confirm.id, run_id: run1 } });
    ws.socket.close();

    const page = (await (await client.fetch(`/chat/threads/${threadId}/items/?after=0`)).json()) as { items: { turnId: string; runId: string }[] };
    expect(page.items.map((item) => item.runId)).toEqual(page.items.map((item) => `${item.turnId}.r1`));
  });

  it('gives a retried turn its second run in its events, its items (pages that start mid-turn too) and its view', async () => {
    const failed = await readSse(await client.post('/chat/stream/', { text: 'flaky today', new_thread: true }));
    expect(failed.at(-1)).toMatchObject({ type: 'error', code: 'provider_unavailable' });
    const turnId = String(failed.at(-1)!.turn_id);
    const threadId = String(failed.at(-1)!.thread_id);
    expect(failed.at(-1)!.run_id).toBe(`${turnId}.r1`);
    const retried = await readSse(await client.post('/chat/retry/', { turn: turnId }));
    expect(retried.at(-1)).toMatchObject({ type: 'done' });
    expect(retried.every((event) => event.run_id === `${turnId}.r2`)).toBe(true);
    const all = (await (await client.fetch(`/chat/threads/${threadId}/items/?after=0`)).json()) as { items: { ordinal: number; kind: string; runId: string; data: { reason?: string } }[] };
    const mark = all.items.find((item) => item.kind === 'retry_marker' && item.data.reason === 'retry')!;
    expect(all.items.map((item) => item.runId)).toEqual(all.items.map((item) => `${turnId}.r${item.ordinal < mark.ordinal ? 1 : 2}`));
    // A page after the mark still knows its run.
    const tail = (await (await client.fetch(`/chat/threads/${threadId}/items/?after=${mark.ordinal}`)).json()) as { items: { runId: string }[] };
    expect(tail.items.length).toBeGreaterThan(0);
    expect(tail.items.every((item) => item.runId === `${turnId}.r2`)).toBe(true);
    const resumed = await readEvents(await view(threadId, { 'last-event-id': String(mark.ordinal) }), (events) => events.some((event) => event.type === 'view'));
    expect(items(resumed).every((event) => event.run_id === `${turnId}.r2`)).toBe(true);
    expect(resumed.at(-1)).toMatchObject({ type: 'view', phase: 'done', turn: { run_id: `${turnId}.r2`, status: 'completed' } });
    // The turn's projection: completed, its answer the retry's text, the time between the runs counted as waiting.
    const answer = all.items.filter((item) => item.kind === 'assistant_text').map((item) => (item as unknown as { id: string }).id);
    const projection = (resumed.at(-1)!.turn as { projection: Record<string, unknown> }).projection;
    expect(projection).toMatchObject({ outcome: 'completed', answer_item_ids: answer, ended_at: expect.any(Number) });
    expect(answer).toHaveLength(1);
    expect(Number(projection.waiting_ms) + Number(projection.work_ms)).toBe(projection.elapsed_ms);
  });

  it('has no views without following: the route is absent and a subscribe frame answers views_unavailable', async () => {
    const bare = await startServer(kit.engine, {});
    try {
      const response = await new Client(bare.url, alice).fetch(`/chat/threads/x/view/`);
      expect(response.status).toBe(404);
      const ws = await openSocket(`${bare.wsUrl}/chat/`, { headers: alice });
      ws.socket.send(JSON.stringify({ type: 'subscribe', thread: 'x' }));
      expect(await ws.next('error')).toMatchObject({ code: 'views_unavailable' });
      ws.socket.close();
    } finally {
      await bare.close();
    }
  });
});
