import { describe, expect, it } from 'vitest';
import { alice, key, trackedKits } from '../../../test/support/engine-kit.js';

const kit = trackedKits();

describe('where a turn begins', () => {
  it("continues the sender's latest thread unless the turn asks for a new one", async () => {
    const { engine } = kit({ completions: [{ text: 'One.' }, { text: 'Two.' }, { text: 'Three.' }] });
    const first = await engine.ask({ actor: alice, requestKey: key(), text: 'first' });
    const second = await engine.ask({ actor: alice, requestKey: key(), text: 'second' });
    expect(second.events[0]!.thread_id).toBe(first.events[0]!.thread_id);
    const third = await engine.ask({ actor: alice, requestKey: key(), text: 'a fresh start', newThread: true });
    expect(third.events[0]!.thread_id).not.toBe(first.events[0]!.thread_id);
    const threads = await engine.threads.list(alice);
    // Without a router reading, a thread is titled by its first answer.
    expect(threads.map((thread) => thread.title)).toEqual(['Three.', 'One.']);
  });

  it('replays a resent request key in the thread it began, leaving no empty thread behind', async () => {
    const { engine } = kit({ completions: [{ text: 'Once.' }] });
    const requestKey = key();
    const first = await engine.ask({ actor: alice, requestKey, text: 'only once', newThread: true });
    const again = await engine.ask({ actor: alice, requestKey, text: 'only once', newThread: true });
    expect(again.events.at(-1)).toMatchObject({ type: 'done', thread_id: first.events[0]!.thread_id });
    expect(await engine.threads.list(alice)).toHaveLength(1);
  });
});

describe('a resent request key', () => {
  it('waits for the turn this engine is still running and replays it to its end', async () => {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const { engine, writes } = kit({ completions: [{ toolCalls: [{ id: 'c1', name: 'touch', arguments: { id: 7 } }] }, { text: 'Touched.' }] }, {}, { gate });
    const requestKey = key();
    const first = engine.ask({ actor: alice, requestKey, text: 'touch part 7' });
    await expect.poll(() => writes.length).toBe(1);
    const again = engine.ask({ actor: alice, requestKey, text: 'touch part 7' });
    open();
    const [original, replayed] = await Promise.all([first, again]);
    expect(original.events.at(-1)).toMatchObject({ type: 'done' });
    expect(replayed.events.map((event) => event.type)).toEqual(['tool_call', 'tool_result', 'text_chunk', 'done']);
    expect(replayed.answer).toBe('Touched.');
    expect(writes).toHaveLength(1);
  });
});
