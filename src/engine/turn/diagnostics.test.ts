import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../../core/index.js';
import { createPlannedRunner, plannedSettingsSchema } from '../../planned/index.js';
import { createScriptedProvider } from '../../providers/index.js';
import type { HookPayloads } from '../index.js';
import { alice, key, trackedKits } from '../../../test/support/engine-kit.js';

const kit = trackedKits();

function recorder(): { records: Readonly<Record<string, JsonValue>>[]; hooks: { turnDiagnostics: (payload: HookPayloads['turnDiagnostics']) => void } } {
  const records: Readonly<Record<string, JsonValue>>[] = [];
  return { records, hooks: { turnDiagnostics: (payload) => void records.push(payload.record) } };
}

describe('the turn diagnostics record', () => {
  it('says how the turn ended, the budgets it used against their limits, its latency per stage, usage and cost', async () => {
    const { records, hooks } = recorder();
    const made = kit(
      { completions: [{ toolCalls: [{ id: 'a', name: 'lookup', arguments: { q: 'x' } }], usage: { inputTokens: 1000, outputTokens: 100 } }, { text: 'Part x.', usage: { inputTokens: 2000, outputTokens: 50 } }] },
      { costPerMillionTokens: { input: 2.5, output: 10 } },
      { hooks },
    );
    await made.engine.ask({ actor: alice, requestKey: key(), text: 'what is part x?' });
    expect(records).toHaveLength(1);
    const record = records[0]!;
    expect(record).toMatchObject({
      event: 'turn_diagnostics',
      status: 'completed',
      provider: { name: 'scripted', model: expect.any(String) },
      terminal: null,
      budgets: { rounds: { used: 2 }, reads: { used: 1, limit: 12 }, failures: { used: 0, limit: 3 }, mutations: { used: 0, limit: 8 } },
      usage: { input_tokens: 3000, output_tokens: 150 },
      cost: 0.009,
      planned: null,
    });
    const latency = record.latency_ms as Record<string, number>;
    expect(Object.keys(latency).sort()).toEqual(['model', 'router', 'tools', 'turn']);
    expect(latency.turn).toBeGreaterThanOrEqual(latency.model! + latency.tools! - 1);
    expect(JSON.stringify(record)).not.toContain('part x');
  });

  it('names the terminal code of a failed turn, and has no cost without prices', async () => {
    const { records, hooks } = recorder();
    const made = kit({ completions: [{ error: { status: 401 } }] }, {}, { hooks });
    await made.engine.ask({ actor: alice, requestKey: key(), text: 'hello' });
    expect(records[0]).toMatchObject({ status: 'failed', terminal: 'provider_auth', cost: null });
  });

  it('carries a planned turn\'s own record: hashed ids, roles, call states, statuses, rounds, stage latency, coverage', async () => {
    const { records, hooks } = recorder();
    const planner = createScriptedProvider({ completions: [{ text: JSON.stringify({ intent: 'read', tasks: [{ id: 't1', goal: 'part x', managers: ['Part'] }] }) }] });
    const executor = createScriptedProvider({ completions: [{ toolCalls: [{ name: 'lookup', arguments: { q: 'x' } }] }, { text: 'Read it.' }] });
    const synthesizer = createScriptedProvider({ completions: [{ text: JSON.stringify({ answer: 'Part x has SKU-1.', evidence: ['e1'] }) }] });
    const planned = createPlannedRunner({ models: { planner, simpleExecutor: executor, complexExecutor: executor, synthesizer, fallback: planner }, settings: plannedSettingsSchema.parse({ enabled: true }), managers: [{ name: 'Part', description: 'A part.' }] });
    const made = kit(undefined, {}, { hooks, planned });
    await made.engine.ask({ actor: alice, requestKey: key(), text: 'what is part x, in detail?' });
    const record = records[0]!;
    expect(record).toMatchObject({ status: 'completed', budgets: { reads: { used: 1 } } });
    const inner = record.planned as Record<string, JsonValue>;
    expect(inner).toMatchObject({ event: 'planned_turn', plan_attempts: 1, trust_group: 'unchecked', rounds: { used: 4, limit: 24 }, coverage: { resolved: 1, total: 1 }, terminal: null, evidence: { query: 1 } });
    expect(inner.tasks).toMatchObject([{ role: 'simpleExecutor', attempts: [{ role: 'simpleExecutor', end: 'resolved' }], features: [], match_sources: ['exact_name', 'schema_description'], calls: [{ state: 'new' }], status: 'resolved' }]);
    expect(Object.keys(inner.latency_ms as object).sort()).toEqual(['evidence', 'planning', 'synthesis', 'turn']);
    const text = JSON.stringify(record);
    for (const secret of ['t1', 'Part', 'part x', 'lookup', 'SKU-1']) expect(text).not.toContain(secret);
  });
});
