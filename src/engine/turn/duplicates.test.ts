import { describe, expect, it } from 'vitest';
import type { ScriptInput } from '../../providers/index.js';
import { collect } from '../index.js';
import type { ChatEvent, EngineSettingsInput } from '../index.js';
import { alice, key, trackedKits } from '../../../test/support/engine-kit.js';

const kit = trackedKits();

type Completion = ScriptInput['completions'][number];
const call = (id: string, name: string, args: unknown): Completion => ({ toolCalls: [{ id, name, arguments: args as Record<string, unknown> }] });

async function run(script: Completion[], settings: EngineSettingsInput = {}) {
  const made = kit({ completions: script }, settings);
  const result = await made.engine.ask({ actor: alice, requestKey: key(), text: 'go' });
  const last = result.events.at(-1)!;
  const items = await made.store.listItems(last.thread_id);
  return { ...result, last, items, made };
}

function toolResults(events: readonly ChatEvent[]) {
  return events.flatMap((event) => (event.type === 'tool_result' ? [{ id: event.id, result: event.result }] : []));
}

function journaledResults(items: Awaited<ReturnType<typeof run>>['items']) {
  return items.filter((item) => item.kind === 'tool_result').map((item) => item.data as { callId: string; result: unknown; duplicateOf?: string });
}

describe('an identical read in the same turn', () => {
  it('runs once across two steps: the second call gets the first one\'s result, journaled and emitted as its own', async () => {
    const { events, last, items, made } = await run([call('a', 'lookup', { q: 'x' }), call('b', 'lookup', { q: 'x' }), { text: 'Part x.' }]);
    expect(last.type).toBe('done');
    expect(made.reads).toEqual(['x']);
    const first = { rows: [{ name: 'Part x', sku: 'SKU-1' }] };
    expect(toolResults(events)).toEqual([
      { id: 'a', result: first },
      { id: 'b', result: first },
    ]);
    expect(journaledResults(items)).toEqual([
      { callId: 'a', name: 'lookup', result: first },
      { callId: 'b', name: 'lookup', result: first, duplicateOf: 'a' },
    ]);
  });

  it('runs once when one completion asks for it twice (arguments compared canonically)', async () => {
    const twice: Completion = {
      toolCalls: [
        { id: 'r1', name: 'lookup', arguments: '{"q":"y"}' },
        { id: 'r2', name: 'lookup', arguments: '{ "q" : "y" }' },
      ],
    };
    const { events, last, made } = await run([twice, { text: 'Part y.' }]);
    expect(last.type).toBe('done');
    expect(made.reads).toEqual(['y']);
    const [r1, r2] = toolResults(events);
    expect(r2).toEqual({ id: 'r2', result: r1!.result });
  });

  it('is not counted toward maxRetriesPerMessage', async () => {
    const { last, made } = await run([call('a', 'lookup', { q: 'x' }), call('b', 'lookup', { q: 'x' }), { text: 'ok' }], { maxRetriesPerMessage: 1 });
    expect(last.type).toBe('done');
    expect(made.reads).toEqual(['x']);
  });

  it('runs again after an earlier error result', async () => {
    const { events, last, made } = await run([call('a', 'lookup', { q: 'boom' }), call('b', 'lookup', { q: 'boom' }), { text: 'It failed.' }]);
    expect(last.type).toBe('done');
    expect(made.reads).toEqual(['boom', 'boom']);
    expect(toolResults(events).map((result) => result.result)).toEqual([
      { error: { code: 'tool_failed', message: expect.any(String) } },
      { error: { code: 'tool_failed', message: expect.any(String) } },
    ]);
  });
});

describe('maxRetriesPerMessage bounds read calls', () => {
  it('fails the read that would cross it with tool_retry_limit, naming the setting and the limit', async () => {
    const { last, made } = await run([call('a', 'lookup', { q: '1' }), call('b', 'lookup', { q: '2' }), { text: 'never' }], { maxRetriesPerMessage: 1 });
    expect(last).toMatchObject({
      type: 'error',
      code: 'tool_retry_limit',
      message: 'This message reached its limit of 1 read tool calls (maxRetriesPerMessage); ask a narrower question.',
    });
    expect(made.reads).toEqual(['1']);
  });

  it('does not count writes', async () => {
    const writes = [1, 2, 3].map((id) => call(`t${id}`, 'touch', { id }));
    const { last, made } = await run([call('a', 'lookup', { q: '1' }), ...writes, { text: 'done' }], { maxRetriesPerMessage: 1 });
    expect(last.type).toBe('done');
    expect(made.writes).toHaveLength(3);
  });
});

describe('an identical write in the same turn', () => {
  it('is refused with duplicate_call and runs once, counted neither as a write nor as a failure', async () => {
    const script = [call('t1', 'touch', { id: 7 }), call('t2', 'touch', { id: 7 }), { text: 'Marked.' }];
    const { events, last, items, made } = await run(script, { maxMutationsPerMessage: 1, maxFailedCallsPerMessage: 0 });
    expect(last.type).toBe('done');
    expect(made.writes).toEqual([{ name: 'touch', input: { id: 7 } }]);
    const [, second] = toolResults(events);
    expect(second).toMatchObject({ id: 't2', result: { error: { code: 'duplicate_call', message: expect.stringContaining("'touch'") } } });
    expect(journaledResults(items).at(-1)).toMatchObject({ callId: 't2', duplicateOf: 't1' });
  });

  it('is refused without being held for confirmation again once the first was approved', async () => {
    const made = kit({
      completions: [
        call('w1', 'create_part', { name: 'Bolt' }),
        { when: { toolResultContains: 'duplicate_call' }, text: 'The Bolt was already created.' },
        call('w2', 'create_part', { name: 'Bolt' }),
      ],
    });
    const { events } = await made.engine.ask({ actor: alice, requestKey: key(), text: 'Create a part called Bolt' });
    const confirm = events.at(-1);
    if (confirm?.type !== 'confirm_mutation') throw new Error(`expected confirm_mutation, got ${JSON.stringify(events)}`);
    const resumed = await collect(made.engine.confirm({ actor: alice, confirmationId: confirm.id, confirmed: true }));
    expect(resumed.events.map((event) => event.type)).toEqual(['tool_result', 'tool_call', 'tool_result', 'text_chunk', 'done']);
    expect(resumed.events[2]).toMatchObject({ id: 'w2', result: { error: { code: 'duplicate_call' } } });
    expect(resumed.answer).toBe('The Bolt was already created.');
    expect(made.writes).toHaveLength(1);
  });

  it('runs again after the first was rejected', async () => {
    const made = kit({
      completions: [
        call('w1', 'create_part', { name: 'Bolt' }),
        { when: { toolResultContains: 'user_rejected' }, ...call('w2', 'create_part', { name: 'Bolt' }) },
      ],
    });
    const { events } = await made.engine.ask({ actor: alice, requestKey: key(), text: 'Create a part called Bolt' });
    const first = events.at(-1);
    if (first?.type !== 'confirm_mutation') throw new Error(`expected confirm_mutation, got ${JSON.stringify(events)}`);
    const resumed = await collect(made.engine.confirm({ actor: alice, confirmationId: first.id, confirmed: false }));
    expect(resumed.events.map((event) => event.type)).toEqual(['tool_result', 'tool_call', 'confirm_mutation']);
  });
});
