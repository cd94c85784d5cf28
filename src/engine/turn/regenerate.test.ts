import { describe, expect, it } from 'vitest';
import { collect } from '../index.js';
import { isSuperseded, withoutSuperseded } from '../shared/index.js';
import type { ChatMessage } from '../../providers/index.js';
import { alice, key, trackedKits } from '../../../test/support/engine-kit.js';

const kit = trackedKits();

const userTexts = (messages: readonly ChatMessage[]) => messages.filter((message) => message.role !== 'system').map((message) => [message.role, 'content' in message ? message.content : null]);

describe('regenerate', () => {
  it("runs a completed latest turn again from the person's message: the old answer stays, superseded, and no model or later turn reads it", async () => {
    const made = kit({ completions: [{ text: 'First answer.' }, { text: 'Second answer.' }, { text: 'About the second.' }] });
    const first = await made.engine.ask({ actor: alice, requestKey: key(), text: 'how many parts?' });
    const turnId = first.events.at(-1)!.turn_id;
    const threadId = first.events.at(-1)!.thread_id;
    const regenerateKey = key();
    const again = await collect(made.engine.retry({ actor: alice, turnId, requestKey: regenerateKey, regenerate: true }));
    expect(again.answer).toBe('Second answer.');
    expect(again.events.at(-1)).toMatchObject({ type: 'done', turn_id: turnId });
    expect(await made.store.getTurn(turnId)).toMatchObject({ status: 'completed' });
    expect(await made.store.listTurns(threadId)).toHaveLength(1);
    expect(userTexts(made.provider!.requests[1]!.messages)).toEqual([['user', 'how many parts?']]);

    const items = await made.engine.threads.history({ actor: alice, threadId });
    const mark = items.find((item) => item.kind === 'retry_marker' && (item.data as { reason?: string }).reason === 'regenerate')!;
    expect(mark.data).toEqual({ reason: 'regenerate', requestKey: regenerateKey });
    const answers = items.filter((item) => item.kind === 'assistant_text');
    expect(answers.map((item) => [(item.data as { text: string }).text, isSuperseded(item, mark.ordinal)])).toEqual([['First answer.', true], ['Second answer.', false]]);
    expect(items.filter((item) => item.kind === 'user_text')).toHaveLength(1);
    expect(withoutSuperseded(items).filter((item) => item.kind === 'assistant_text')).toHaveLength(1);

    // The same key replays the regenerated run, not the superseded one.
    const replayed = await collect(made.engine.retry({ actor: alice, turnId, requestKey: regenerateKey, regenerate: true }));
    expect(replayed.answer).toBe('Second answer.');
    expect(made.provider!.requests).toHaveLength(2);

    await made.engine.ask({ actor: alice, threadId, requestKey: key(), text: 'and then?' });
    expect(userTexts(made.provider!.requests[2]!.messages)).toEqual([['user', 'how many parts?'], ['assistant', 'Second answer.'], ['user', 'and then?']]);
  });

  it('asks for a new confirmation before a regenerated answer runs a write again, even one its tool runs unconfirmed', async () => {
    const made = kit({
      completions: [
        { toolCalls: [{ id: 't1', name: 'touch', arguments: { id: 1 } }] },
        { text: 'Touched it.' },
        { toolCalls: [{ id: 't2', name: 'touch', arguments: { id: 1 } }] },
        { text: 'Touched it again.' },
      ],
    });
    const first = await made.engine.ask({ actor: alice, requestKey: key(), text: 'touch part 1' });
    expect(first.answer).toBe('Touched it.');
    expect(made.writes).toHaveLength(1);
    const turnId = first.events.at(-1)!.turn_id;
    const paused = await collect(made.engine.retry({ actor: alice, turnId, requestKey: key(), regenerate: true }));
    const confirmation = paused.events.at(-1)!;
    expect(confirmation).toMatchObject({ type: 'confirm_mutation', mutation: 'touch', input: { id: 1 } });
    expect(made.writes).toHaveLength(1);
    expect(await made.store.getTurn(turnId)).toMatchObject({ status: 'waiting' });
    const confirmed = await collect(made.engine.confirm({ actor: alice, confirmationId: confirmation.type === 'confirm_mutation' ? confirmation.id : '', confirmed: true }));
    expect(confirmed.answer).toBe('Touched it again.');
    expect(made.writes).toHaveLength(2);
    expect(await made.store.getTurn(turnId)).toMatchObject({ status: 'completed' });
  });

  it('refuses with not_regenerable a turn that is not the latest, is still running, or did not complete; without regenerate a completed turn stays not_retryable', async () => {
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const made = kit({ completions: [{ text: 'One.' }, { text: 'Two.' }, { toolCalls: [{ id: 't', name: 'touch', arguments: { id: 1 } }] }, { text: 'Three.' }] }, {}, { gate });
    const first = await made.engine.ask({ actor: alice, requestKey: key(), text: 'one' });
    const threadId = first.events.at(-1)!.thread_id;
    const firstTurn = first.events.at(-1)!.turn_id;
    const second = await made.engine.ask({ actor: alice, threadId, requestKey: key(), text: 'two' });
    const refusal = async (turnId: string, regenerate = true) => (await collect(made.engine.retry({ actor: alice, turnId, requestKey: key(), regenerate }))).events;
    expect(await refusal(firstTurn)).toEqual([expect.objectContaining({ type: 'error', code: 'not_regenerable', reason: 'not_latest' })]);
    expect(await refusal(second.events.at(-1)!.turn_id, false)).toEqual([expect.objectContaining({ type: 'error', code: 'not_retryable', reason: 'completed' })]);

    const running = collect(made.engine.send({ actor: alice, threadId, requestKey: key(), text: 'three' }));
    for (let i = 0; i < 200 && made.writes.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 5));
    const third = (await made.store.listTurns(threadId)).at(-1)!;
    expect(await refusal(third.id)).toEqual([expect.objectContaining({ type: 'error', code: 'not_regenerable', reason: 'active' })]);
    const stopping = made.engine.cancel({ threadId, mode: 'graceful' });
    open();
    await stopping;
    await running;
    expect(await refusal(third.id)).toEqual([expect.objectContaining({ type: 'error', code: 'not_regenerable', reason: 'not_completed' })]);
    expect(made.provider!.requests).toHaveLength(3);
  });
});
