import { describe, expect, it } from 'vitest';
import { collect } from '../index.js';
import { alice, bob, key, trackedKits } from '../../../test/support/engine-kit.js';
import type { Kit } from '../../../test/support/engine-kit.js';

const kit = trackedKits();

const createScript = {
  completions: [
    { toolCalls: [{ id: 'w1', name: 'create_part', arguments: { name: 'Bolt' } }], usage: { inputTokens: 5, outputTokens: 1 } },
    { name: 'after-created', when: { toolResultContains: '"id"' }, text: 'Created the Bolt.', usage: { inputTokens: 7, outputTokens: 3 } },
    { name: 'after-rejected', when: { toolResultContains: 'user_rejected' }, text: 'Nothing was changed.' },
    { name: 'after-expired', when: { toolResultContains: 'confirmation_expired' }, text: 'The confirmation lapsed.' },
    { name: 'after-cancel', when: { toolResultContains: 'turn_cancelled' }, text: 'cancelled' },
  ],
};

async function pause(kit: Kit) {
  const { events } = await kit.engine.ask({ actor: alice, requestKey: key(), text: 'Create a part called Bolt' });
  const confirm = events.at(-1);
  if (confirm?.type !== 'confirm_mutation') throw new Error(`expected confirm_mutation, got ${JSON.stringify(events)}`);
  return { events, confirm };
}

describe('confirmations', () => {
  it('pauses a write for confirmation, then runs it once on approval and finishes the turn', async () => {
    const made = kit(createScript);
    const { events, confirm } = await pause(made);
    expect(events.map((event) => event.type)).toEqual(['tool_call', 'confirm_mutation']);
    expect(confirm).toMatchObject({ mutation: 'create_part', input: { name: 'Bolt' } });
    expect(made.writes).toEqual([]);
    expect(await made.store.getTurn(confirm.turn_id)).toMatchObject({ status: 'waiting' });
    const resumed = await collect(made.engine.confirm({ actor: alice, confirmationId: confirm.id, confirmed: true }));
    expect(resumed.events.map((event) => event.type)).toEqual(['tool_result', 'text_chunk', 'done']);
    expect(resumed.events[0]).toMatchObject({ id: 'w1', result: { id: 1, name: 'Bolt' } });
    expect(resumed.events.at(-1)).toMatchObject({ type: 'done', usage: { input_tokens: 12, output_tokens: 4 } });
    expect(resumed.answer).toBe('Created the Bolt.');
    expect(made.writes).toHaveLength(1);
    const kinds = (await made.store.listItems(confirm.thread_id)).map((item) => item.kind);
    expect(kinds).toEqual(['user_text', 'tool_call', 'confirmation_request', 'confirmation_resolution', 'tool_result', 'assistant_text']);
  });

  it('turns a rejection into a tool result the model sees, and continues', async () => {
    const made = kit(createScript);
    const { confirm } = await pause(made);
    const resumed = await collect(made.engine.confirm({ actor: alice, confirmationId: confirm.id, confirmed: false }));
    expect(resumed.events[0]).toMatchObject({ type: 'tool_result', result: { status: 'cancelled', reason: 'user_rejected' } });
    expect(resumed.answer).toBe('Nothing was changed.');
    expect(made.writes).toEqual([]);
  });

  it('turns an expiry into a tool result and resumes the turn without a reader', async () => {
    let now = 1_700_000_000_000;
    const made = kit(createScript, {}, { clock: () => now });
    const { confirm } = await pause(made);
    now += 30_001;
    expect(await made.engine.expirePending()).toBe(1);
    const turn = await made.store.getTurn(confirm.turn_id);
    expect(turn).toMatchObject({ status: 'completed' });
    const items = await made.store.listItems(confirm.thread_id);
    expect(items.find((item) => item.kind === 'tool_result')?.data).toMatchObject({ result: { error: { code: 'confirmation_expired' } } });
    expect(items.at(-1)?.data).toMatchObject({ text: 'The confirmation lapsed.' });
    const late = await collect(made.engine.confirm({ actor: alice, confirmationId: confirm.id, confirmed: true }));
    expect(late.events).toEqual([expect.objectContaining({ type: 'error', code: 'confirmation_unavailable' })]);
    expect(made.writes).toEqual([]);
  });

  it('expires on its own timer when nobody answers', async () => {
    const made = kit(createScript, {}, { toolSettings: { confirmTimeoutSeconds: 0.05 } });
    const { confirm } = await pause(made);
    for (let i = 0; i < 200; i++) {
      if ((await made.store.getTurn(confirm.turn_id))?.status === 'completed') break;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(await made.store.getTurn(confirm.turn_id)).toMatchObject({ status: 'completed' });
  });

  it('refuses a replayed confirmation id and another actor', async () => {
    const made = kit(createScript);
    const { confirm } = await pause(made);
    const intruder = await collect(made.engine.confirm({ actor: bob, confirmationId: confirm.id, confirmed: true }));
    expect(intruder.events).toEqual([expect.objectContaining({ type: 'error', code: 'confirmation_unavailable' })]);
    await collect(made.engine.confirm({ actor: alice, confirmationId: confirm.id, confirmed: true }));
    const replay = await collect(made.engine.confirm({ actor: alice, confirmationId: confirm.id, confirmed: true }));
    expect(replay.events).toEqual([expect.objectContaining({ type: 'error', code: 'confirmation_unavailable' })]);
    expect(made.writes).toHaveLength(1);
  });

  it('executes exactly once under 50 concurrent confirmations', async () => {
    const made = kit(createScript);
    const { confirm } = await pause(made);
    const outcomes = await Promise.all(
      Array.from({ length: 50 }, async () => collect(made.engine.confirm({ actor: alice, confirmationId: confirm.id, confirmed: true }))),
    );
    expect(made.writes).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome.events.at(-1)?.type === 'done')).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome.events[0]?.type === 'error')).toHaveLength(49);
  });

  it('cancels a waiting turn and resolves its confirmation as cancelled', async () => {
    const made = kit(createScript);
    const { confirm } = await pause(made);
    const turn = await made.engine.cancel({ threadId: confirm.thread_id, mode: 'immediate' });
    expect(turn).toMatchObject({ status: 'cancelled' });
    expect(await made.store.getConfirmation(confirm.id)).toMatchObject({ status: 'resolved', resolution: { status: 'cancelled' } });
    const late = await collect(made.engine.confirm({ actor: alice, confirmationId: confirm.id, confirmed: true }));
    expect(late.events[0]).toMatchObject({ type: 'error', code: 'confirmation_unavailable' });
    expect(made.writes).toEqual([]);
  });

  it('runs a write without confirmation when its tool does not ask for one, and reports it to the hooks', async () => {
    const executed: string[] = [];
    const made = kit(
      { completions: [{ toolCalls: [{ id: 't1', name: 'touch', arguments: { id: 3 } }] }, { text: 'Touched.' }] },
      {},
      { hooks: { mutationExecuted: (payload) => void executed.push(`${payload.name}:${payload.status}`) } },
    );
    const { events } = await made.engine.ask({ actor: alice, requestKey: key(), text: 'touch part 3' });
    expect(events.map((event) => event.type)).toEqual(['tool_call', 'tool_result', 'text_chunk', 'done']);
    expect(executed).toEqual(['touch:executed']);
  });
});
