import { describe, expect, it } from 'vitest';
import type { ScriptInput } from '../../providers/index.js';
import { alice, key, trackedKits } from '../../../test/support/engine-kit.js';
import { parseEngineSettings } from '../index.js';
import type { EngineSettingsInput } from '../index.js';

const kit = trackedKits();

type Completion = ScriptInput['completions'][number];
const call = (id: string, name: string, args: unknown): Completion => ({ toolCalls: [{ id, name, arguments: args as Record<string, unknown> }] });

async function run(script: Completion[], settings: EngineSettingsInput = {}) {
  const made = kit({ completions: script }, settings);
  const result = await made.engine.ask({ actor: alice, requestKey: key(), text: 'go' });
  const last = result.events.at(-1)!;
  const turn = await made.store.getTurn(last.turn_id);
  return { ...result, last, turn, made };
}

describe('bounds, each with its code and a terminal turn', () => {
  it('fits a normal search → schema → path → query sequence well within the read call bound', async () => {
    const script = ['search', 'schema', 'path', 'query'].map((q, i) => call(`c${i}`, 'lookup', { q }));
    const { last } = await run([...script, { text: 'done' }]);
    expect(last.type).toBe('done');
  });

  it.each([
    {
      name: 'maxRetriesPerMessage (read calls) → tool_retry_limit',
      settings: { maxRetriesPerMessage: 2 },
      script: [call('a', 'lookup', { q: '1' }), call('b', 'lookup', { q: '2' }), call('c', 'lookup', { q: '3' }), { text: 'never' }],
      code: 'tool_retry_limit',
      reads: 2,
    },
    {
      name: 'maxFailedCallsPerMessage → tool_failure_limit',
      settings: { maxFailedCallsPerMessage: 1 },
      script: [call('a', 'lookup', { q: 'boom' }), call('b', 'lookup', { q: 'boom' }), { text: 'never' }],
      code: 'tool_failure_limit',
      reads: 2,
    },
    {
      name: 'maxTotalRoundsPerMessage → turn_limit',
      settings: { maxTotalRoundsPerMessage: 2 },
      script: [call('a', 'lookup', { q: '1' }), call('b', 'lookup', { q: '2' }), { text: 'never' }],
      code: 'turn_limit',
      reads: 2,
    },
  ])('$name', async ({ settings, script, code, reads }) => {
    const { last, turn, made } = await run(script, settings);
    expect(last).toMatchObject({ type: 'error', code });
    expect(turn).toMatchObject({ status: 'failed', failureCode: code });
    expect(made.reads).toHaveLength(reads);
  });

  it('maxMutationsPerMessage 0 forbids writes: mutation_limit and nothing runs', async () => {
    const { last, turn, made } = await run([call('t', 'touch', { id: 1 }), { text: 'never' }], { maxMutationsPerMessage: 0 });
    expect(last).toMatchObject({ type: 'error', code: 'mutation_limit' });
    expect(turn?.status).toBe('failed');
    expect(made.writes).toEqual([]);
  });

  it('counts every write execution: the second write past a limit of 1 fails with mutation_limit', async () => {
    const { last, made } = await run([call('t1', 'touch', { id: 1 }), call('t2', 'touch', { id: 2 }), { text: 'never' }], { maxMutationsPerMessage: 1 });
    expect(last).toMatchObject({ type: 'error', code: 'mutation_limit' });
    expect(made.writes).toHaveLength(1);
  });

  it('rejects a write batched with another call: mutation_batch_unsupported, none runs', async () => {
    const batched: Completion = {
      toolCalls: [
        { id: 'r', name: 'lookup', arguments: { q: 'x' } },
        { id: 'w', name: 'create_part', arguments: { name: 'Y' } },
      ],
    };
    const { last, turn, made } = await run([batched, { text: 'never' }]);
    expect(last).toMatchObject({ type: 'error', code: 'mutation_batch_unsupported' });
    expect(turn?.status).toBe('failed');
    expect(made.reads).toEqual([]);
    expect(made.writes).toEqual([]);
  });

  it('runs batched reads concurrently and records their results in call order', async () => {
    const batched: Completion = {
      toolCalls: [
        { id: 'r1', name: 'lookup', arguments: { q: 'a' } },
        { id: 'r2', name: 'lookup', arguments: { q: 'b' } },
        { id: 'r3', name: 'lookup', arguments: { q: 'c' } },
      ],
    };
    const { events, made } = await run([batched, { text: 'three' }]);
    expect(events.filter((event) => event.type === 'tool_result').map((event) => (event.type === 'tool_result' ? event.id : ''))).toEqual(['r1', 'r2', 'r3']);
    const items = await made.store.listItems(events[0]!.thread_id);
    expect(items.filter((item) => item.kind === 'tool_result').map((item) => (item.data as { callId: string }).callId)).toEqual(['r1', 'r2', 'r3']);
  });

  it('sends invalid arguments back as a coded result, and fails after two corrections with tool_argument_correction_exhausted', async () => {
    const bad = (id: string): Completion => ({ toolCalls: [{ id, name: 'lookup', arguments: { query: `wrong field ${id}` } }] });
    const { events, last } = await run([bad('a'), bad('b'), bad('c'), { text: 'never' }]);
    const results = events.filter((event) => event.type === 'tool_result');
    expect(results).toHaveLength(3);
    expect(results[0]).toMatchObject({ result: { error: { code: 'invalid_arguments' } } });
    expect(last).toMatchObject({ type: 'error', code: 'tool_argument_correction_exhausted' });
  });

  it('accepts a corrected call after an invalid one', async () => {
    const { last } = await run([
      { toolCalls: [{ id: 'a', name: 'lookup', arguments: '{"q": ' }] },
      call('b', 'lookup', { q: 'fixed' }),
      { text: 'ok' },
    ]);
    expect(last.type).toBe('done');
  });

  it('withholds the third identical call with feedback once, then fails a further repeat with tool_repetition', async () => {
    const same = (id: string): Completion => call(id, 'lookup', { q: 'same' });
    const { events, last, made } = await run([same('a'), same('b'), same('c'), same('d'), { text: 'never' }]);
    // The second is a duplicate, answered with the first one's result: the read ran once.
    expect(made.reads).toEqual(['same']);
    const results = events.filter((event) => event.type === 'tool_result');
    expect(results[1]).toMatchObject({ id: 'b', result: { rows: [{ name: 'Part same' }] } });
    expect(results[2]).toMatchObject({ id: 'c', result: { error: { code: 'tool_repetition' } } });
    expect(last).toMatchObject({ type: 'error', code: 'tool_repetition' });
  });

  it('lets the model move on after the repetition feedback', async () => {
    const same = (id: string): Completion => call(id, 'lookup', { q: 'same' });
    const { last } = await run([same('a'), same('b'), same('c'), call('d', 'lookup', { q: 'other' }), { text: 'fine' }]);
    expect(last.type).toBe('done');
  });
});

describe('recovery of missing tool calls', () => {
  it('gives one corrective round when the model answers without tools, and shows only the final answer', async () => {
    const { answer, last, made } = await run(
      [{ text: 'Probably 42.' }, call('a', 'lookup', { q: 'count' }), { text: 'There is one part.' }],
      { recoverMissingToolCalls: true },
    );
    expect(last.type).toBe('done');
    expect(answer).toBe('There is one part.');
    expect(made.provider!.requests[1]!.messages.at(-1)).toMatchObject({ role: 'user' });
  });

  it('recovers at most once per turn', async () => {
    const { answer, made } = await run([{ text: 'Guess one.' }, { text: 'Guess two.' }], { recoverMissingToolCalls: true });
    expect(answer).toBe('Guess two.');
    expect(made.provider!.requests).toHaveLength(2);
  });

  it('asks for an answer when the model returns nothing after tools', async () => {
    const { answer } = await run([call('a', 'lookup', { q: 'x' }), { text: '' }, { text: 'Part x.' }], { recoverMissingToolCalls: true });
    expect(answer).toBe('Part x.');
  });

  it('is off by default: an answer without tools stands', async () => {
    const { answer, made } = await run([{ text: 'Just words.' }]);
    expect(answer).toBe('Just words.');
    expect(made.provider!.requests).toHaveLength(1);
  });
});

describe('the bound settings', () => {
  it('defaults to 12 read calls and 3 failed calls, and derives the round cap from every bound', () => {
    const defaults = parseEngineSettings({});
    expect(defaults).toMatchObject({ maxRetriesPerMessage: 12, maxFailedCallsPerMessage: 3, maxMutationsPerMessage: 8, maxArgumentCorrections: 2, maxTotalRoundsPerMessage: null });
    // maxRetriesPerMessage + maxFailedCallsPerMessage + maxMutationsPerMessage + maxArgumentCorrections + 2
    expect(defaults.maxRounds).toBe(27);
    expect(parseEngineSettings({ maxRetriesPerMessage: 5, maxFailedCallsPerMessage: 1 }).maxRounds).toBe(18);
    expect(parseEngineSettings({ maxTotalRoundsPerMessage: 4 }).maxRounds).toBe(4);
  });

  it('knows no maxToolCallsPerMessage: maxRetriesPerMessage is the read bound', () => {
    expect(() => parseEngineSettings({ maxToolCallsPerMessage: 12 } as EngineSettingsInput)).toThrow(/maxToolCallsPerMessage/);
  });
});
