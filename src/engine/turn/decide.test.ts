import { describe, expect, it } from 'vitest';
import type { ItemRecord } from '../../store/index.js';
import { afterTools, decide } from './decide.js';
import type { Completion } from './decide.js';
import { parseEngineSettings } from '../settings.js';
import { callSignature, emptyCounters, replayCounters, successfulCalls } from './turn-state.js';

const settings = parseEngineSettings({});
const effects: Record<string, string> = { lookup: 'read', mutate: 'write' };
const effectOf = (name: string): string | undefined => effects[name];
const completion = (calls: [string, string][], text = ''): Completion => ({
  text,
  toolCalls: calls.map(([name, args], i) => ({ id: `c${i}`, name, arguments: args })),
  usage: { inputTokens: 0, outputTokens: 0 },
});

describe('decide', () => {
  it('answers a completion without tool calls', () => {
    expect(decide({ completion: completion([], 'hi'), counters: emptyCounters, settings, effectOf, hasTools: true })).toEqual({ kind: 'answer' });
  });

  it('plans reads, and refuses a write beside another call', () => {
    const reads = decide({ completion: completion([['lookup', '{"q":1}'], ['lookup', '{"q":2}']]), counters: emptyCounters, settings, effectOf, hasTools: true });
    expect(reads.kind === 'tools' && reads.calls.map((c) => c.disposition)).toEqual(['execute', 'execute']);
    const mixed = decide({ completion: completion([['lookup', '{}'], ['mutate', '{}']]), counters: emptyCounters, settings, effectOf, hasTools: true });
    expect(mixed).toMatchObject({ kind: 'fail', code: 'mutation_batch_unsupported' });
  });

  it('counts repetition over canonical arguments, whatever the key order', () => {
    expect(callSignature('lookup', '{"a":1,"b":2}')).toBe(callSignature('lookup', '{ "b": 2, "a": 1 }'));
    const streaks = new Map([[callSignature('lookup', '{"a":1,"b":2}'), 2]]);
    const third = decide({ completion: completion([['lookup', '{"b":2,"a":1}']]), counters: { ...emptyCounters, streaks }, settings, effectOf, hasTools: true });
    expect(third.kind === 'tools' && third.calls[0]?.disposition).toBe('repeat_feedback');
    const again = decide({ completion: completion([['lookup', '{"b":2,"a":1}']]), counters: { ...emptyCounters, streaks, repetitionWarned: true }, settings, effectOf, hasTools: true });
    expect(again).toMatchObject({ kind: 'fail', code: 'tool_repetition' });
  });

  it('fails the read that would cross maxRetriesPerMessage with tool_retry_limit, and a write at the mutation bound', () => {
    const full = { ...emptyCounters, readCalls: settings.maxRetriesPerMessage };
    expect(decide({ completion: completion([['lookup', '{}']]), counters: full, settings, effectOf, hasTools: true })).toEqual({
      kind: 'fail',
      code: 'tool_retry_limit',
      message: 'This message reached its limit of 12 read tool calls (maxRetriesPerMessage); ask a narrower question.',
    });
    const written = { ...emptyCounters, mutations: settings.maxMutationsPerMessage };
    expect(decide({ completion: completion([['mutate', '{}']]), counters: written, settings, effectOf, hasTools: true })).toMatchObject({ code: 'mutation_limit' });
  });

  it('fails after more failed calls than maxFailedCallsPerMessage with tool_failure_limit, and after two corrections', () => {
    const plan = decide({ completion: completion([['lookup', '{}']]), counters: emptyCounters, settings, effectOf, hasTools: true });
    if (plan.kind !== 'tools') throw new Error('expected tools');
    const failing = afterTools({ ...emptyCounters, failedCalls: 3 }, plan, { reads: 1, mutations: 0, failures: 1, invalidArguments: false }, settings);
    expect(failing.failure?.code).toBe('tool_failure_limit');
    expect(failing.failure?.message).toContain('maxFailedCallsPerMessage (3)');
    const correcting = afterTools({ ...emptyCounters, correctionStreak: 2 }, plan, { reads: 0, mutations: 0, failures: 0, invalidArguments: true }, settings);
    expect(correcting.failure?.code).toBe('tool_argument_correction_exhausted');
    const fixed = afterTools({ ...emptyCounters, correctionStreak: 2 }, plan, { reads: 1, mutations: 0, failures: 0, invalidArguments: false }, settings);
    expect(fixed.failure).toBeUndefined();
    expect(fixed.counters.correctionStreak).toBe(0);
  });
});

describe('duplicates', () => {
  const earlier = new Map([[callSignature('lookup', '{"q":1}'), { callId: 'old', result: { rows: [] } }]]);

  it('plans an identical call that already succeeded as a duplicate of it, whatever the key order', () => {
    const plan = decide({ completion: completion([['lookup', '{ "q": 1 }'], ['lookup', '{"q":2}']]), counters: emptyCounters, settings, effectOf, hasTools: true, earlier });
    if (plan.kind !== 'tools') throw new Error('expected tools');
    expect(plan.calls.map((c) => [c.disposition, c.duplicateOf])).toEqual([
      ['duplicate', { callId: 'old', result: { rows: [] } }],
      ['execute', undefined],
    ]);
  });

  it('plans the second of two identical calls in one completion as a duplicate of the first', () => {
    const plan = decide({ completion: completion([['lookup', '{"q":3}'], ['lookup', '{"q":3}']]), counters: emptyCounters, settings, effectOf, hasTools: true });
    if (plan.kind !== 'tools') throw new Error('expected tools');
    expect(plan.calls.map((c) => [c.disposition, c.duplicateOf])).toEqual([
      ['execute', undefined],
      ['duplicate', { callId: 'c0', index: 0 }],
    ]);
  });

  it('does not count a duplicate read toward maxRetriesPerMessage', () => {
    const full = { ...emptyCounters, readCalls: settings.maxRetriesPerMessage };
    expect(decide({ completion: completion([['lookup', '{"q":1}']]), counters: full, settings, effectOf, hasTools: true, earlier })).toMatchObject({ kind: 'tools' });
  });

  it('reuses only successes: the results of errors and withheld writes are not earlier calls', () => {
    let ordinal = 0;
    const item = (kind: ItemRecord['kind'], data: Record<string, unknown>): ItemRecord => ({ id: `i${++ordinal}`, threadId: 't', turnId: 'u', ordinal, kind, data: data as ItemRecord['data'], createdAt: 0 });
    const found = successfulCalls([
      item('tool_call', { callId: 'a', name: 'lookup', arguments: '{"q":"boom"}', effect: 'read', step: 1 }),
      item('tool_result', { callId: 'a', name: 'lookup', result: { error: { code: 'tool_failed', message: 'x' } } }),
      item('tool_call', { callId: 'w', name: 'mutate', arguments: '{"x":1}', effect: 'write', step: 2 }),
      item('tool_result', { callId: 'w', name: 'mutate', result: { status: 'cancelled', reason: 'user_rejected' } }),
      item('tool_call', { callId: 'b', name: 'lookup', arguments: '{"q":"ok"}', effect: 'read', step: 3 }),
      item('tool_result', { callId: 'b', name: 'lookup', result: { rows: [1] } }),
    ]);
    expect([...found.values()]).toEqual([{ callId: 'b', result: { rows: [1] } }]);
  });
});

describe('replayCounters', () => {
  it('rebuilds rounds, reads, writes and failures from the journal', () => {
    let ordinal = 0;
    const item = (kind: ItemRecord['kind'], data: Record<string, unknown>): ItemRecord => ({
      id: `i${++ordinal}`,
      threadId: 't',
      turnId: 'u',
      ordinal,
      kind,
      data: data as ItemRecord['data'],
      createdAt: 0,
    });
    const counters = replayCounters([
      item('user_text', { text: 'q' }),
      item('tool_call', { callId: 'a', name: 'lookup', arguments: '{}', effect: 'read', step: 1 }),
      item('tool_result', { callId: 'a', name: 'lookup', result: { error: { code: 'tool_failed', message: 'x' } } }),
      item('summary', { text: 's', throughItemId: 'x', step: 2 }),
      item('tool_call', { callId: 'w', name: 'mutate', arguments: '{}', effect: 'write', step: 3 }),
      item('confirmation_request', { confirmationId: 'c', callId: 'w', name: 'mutate', arguments: {}, expiresAt: '' }),
      item('confirmation_resolution', { confirmationId: 'c', callId: 'w', outcome: 'approved' }),
      item('tool_result', { callId: 'w', name: 'mutate', result: { ok: true } }),
    ]);
    expect(counters).toMatchObject({ rounds: 3, readCalls: 1, failedCalls: 1, mutations: 1, toolCalls: 2, correctionStreak: 0, recoveryUsed: false });
  });

  it('counts a duplicate neither as a read, a write nor a failure', () => {
    let ordinal = 0;
    const item = (kind: ItemRecord['kind'], data: Record<string, unknown>): ItemRecord => ({ id: `i${++ordinal}`, threadId: 't', turnId: 'u', ordinal, kind, data: data as ItemRecord['data'], createdAt: 0 });
    const counters = replayCounters([
      item('tool_call', { callId: 'a', name: 'lookup', arguments: '{"q":1}', effect: 'read', step: 1 }),
      item('tool_result', { callId: 'a', name: 'lookup', result: { rows: [] } }),
      item('tool_call', { callId: 'b', name: 'lookup', arguments: '{"q":1}', effect: 'read', step: 2 }),
      item('tool_result', { callId: 'b', name: 'lookup', result: { rows: [] }, duplicateOf: 'a' }),
      item('tool_call', { callId: 'w', name: 'mutate', arguments: '{}', effect: 'write', step: 3 }),
      item('tool_result', { callId: 'w', name: 'mutate', result: { ok: true } }),
      item('tool_call', { callId: 'v', name: 'mutate', arguments: '{}', effect: 'write', step: 4 }),
      item('tool_result', { callId: 'v', name: 'mutate', result: { error: { code: 'duplicate_call', message: 'x' } }, duplicateOf: 'w' }),
    ]);
    expect(counters).toMatchObject({ readCalls: 1, mutations: 1, failedCalls: 0, toolCalls: 4 });
  });
});
