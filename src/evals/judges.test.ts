import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../core/index.js';
import { caseOpener, judgeAccuracy, judgeResultSet, judgeSequence, largeChain, largeFixture, parseDataset, runDataset } from './index.js';
import type { EvalTurn, ObservedTurn } from './index.js';

function turnWith(expect: string): EvalTurn {
  return parseDataset(`name: t\nnow: '2026-11-30T10:00:00Z'\ncases:\n  - { id: a, actor: alice, language: en, turns: [{ text: q, kind: read, expect: ${expect} }] }\n`).cases[0]!.turns[0]!;
}

function observed(calls: readonly { tool: string; arguments?: JsonValue; result?: JsonValue }[], answer = ''): ObservedTurn {
  return {
    outcome: 'unread',
    planLanguage: 'en',
    planSteps: [],
    calls: calls.map((call) => ({ taskId: null, tool: call.tool, arguments: call.arguments ?? {}, result: call.result })),
    confirmations: [],
    answer,
    done: true,
    error: null,
    coverage: null,
    usage: { inputTokens: 0, outputTokens: 0 },
    events: 0,
    trace: [],
  };
}

const page = (rows: readonly Record<string, JsonValue>[]): JsonValue => ({ data: [...rows], total_count: rows.length, has_more: false });

describe('the sequence judge', () => {
  const calls = observed([{ tool: 'search_managers' }, { tool: 'get_manager_schema' }, { tool: 'query' }]);
  it('passes an ordered subsequence among other calls, and fails it out of order', () => {
    expect(judgeSequence(turnWith('{ sequence: { tools: [search_managers, query] } }'), calls).status).toBe('pass');
    expect(judgeSequence(turnWith('{ sequence: { tools: [query, search_managers] } }'), calls)).toMatchObject({ status: 'fail', reasons: ['expected in order query → search_managers; got search_managers → get_manager_schema → query'] });
  });
  it('in strict order, wants exactly the tools given', () => {
    expect(judgeSequence(turnWith('{ sequence: { tools: [search_managers, query], order: strict } }'), calls).status).toBe('fail');
    expect(judgeSequence(turnWith('{ sequence: { tools: [search_managers, get_manager_schema, query], order: strict } }'), calls).status).toBe('pass');
  });
  it('skips a turn that names no sequence', () => {
    expect(judgeSequence(turnWith('{}'), calls).status).toBe('skip');
  });
});

describe('the accuracy judge', () => {
  const seen = observed([{ tool: 'query', arguments: { manager: 'Disk', filters: { serial: 'D-0005' } }, result: page([{ serial: 'D-0005', capacityGb: 1000 }]) }]);
  it('finds a result with the row count and rows it must hold, numbers read as numbers', () => {
    expect(judgeAccuracy(turnWith("{ results: [{ tool: query, arguments: { manager: Disk }, rows: 1, includes: [{ serial: D-0005, capacityGb: '1000' }] }] }"), seen).status).toBe('pass');
  });
  it('names what no result held, and a call that was never made', () => {
    expect(judgeAccuracy(turnWith('{ results: [{ tool: query, rows: 2 }] }'), seen).reasons[0]).toMatch(/^no query result holds 2 rows; got \{"data"/);
    expect(judgeAccuracy(turnWith('{ results: [{ tool: query, arguments: { manager: Server } }] }'), seen).reasons).toEqual(['no query call with {"manager":"Server"}']);
  });
  it('does not read an error result as rows', () => {
    const failed = observed([{ tool: 'query', result: { error: { code: 'invalid_arguments', message: 'x' } } }]);
    expect(judgeAccuracy(turnWith('{ results: [{ tool: query, rows: 0 }] }'), failed).status).toBe('fail');
  });
});

describe('the result-set judge', () => {
  const rows = page([{ serial: 'D-0005' }, { serial: 'D-0006' }, { serial: 'D-0007' }]);
  it('passes an answer naming exactly the set', () => {
    expect(judgeResultSet(turnWith('{ resultSet: { field: serial, values: [D-0005, D-0006] } }'), observed([{ tool: 'query', result: rows }], 'D-0005 and D-0006')).status).toBe('pass');
  });
  it('fails a missing value and a value of the results outside the set, nested rows and others included', () => {
    const verdict = judgeResultSet(turnWith('{ resultSet: { field: serial, values: [D-0005, D-0006], others: [D-0099] } }'), observed([{ tool: 'query', result: rows }], 'D-0005, D-0007 and D-0099'));
    expect(verdict.reasons).toEqual(["answer lacks 'D-0006'", "answer also names 'D-0007', 'D-0099', outside the set"]);
    const nested = page([{ name: 'srv-003', disks: [{ serial: 'D-0005' }, { serial: 'D-0008' }] }]);
    expect(judgeResultSet(turnWith('{ resultSet: { field: serial, values: [D-0005] } }'), observed([{ tool: 'query', result: nested }], 'D-0005, D-0008')).status).toBe('fail');
  });
});

describe('the large synthetic fixture', () => {
  it('holds 150 managers, answers a model\'s calls a case fixes with the fixed result (and runs the others), and names an unknown actor', async () => {
    const fixture = await largeFixture(new Date());
    try {
      expect(fixture.app.managers).toHaveLength(150);
      expect(fixture.app.managers.filter((manager) => manager.relations.length > 0).map((manager) => manager.name).sort()).toEqual([...largeChain].sort());
    } finally {
      await fixture.close();
    }
    const dataset = parseDataset(`
name: fixed
now: '2026-11-30T10:00:00Z'
fixture: large
cases:
  - id: fixed-count
    actor: alice
    language: en
    needs: model
    toolResults: [{ tool: query, arguments: { manager: Server }, result: { data: [{ id: '1', name: srv-fixed }], total_count: 1, has_more: false } }]
    script:
      completions:
        - toolCalls: [{ name: query, arguments: { manager: Server, fields: [name] } }]
        - toolCalls: [{ name: query, arguments: { manager: Rack, fields: [name], limit: 1 } }]
        - text: One server, srv-fixed.
    turns:
      - text: which organization owns the most racks, counting only the racks with servers?
        kind: read
        expect:
          results: [{ tool: query, arguments: { manager: Server }, rows: 1, includes: [{ name: srv-fixed }] }, { tool: query, arguments: { manager: Rack }, rows: 128 }]
  - id: stranger
    actor: bob
    language: en
    turns: [{ text: list the servers, kind: read, expect: { outcome: run } }]
`);
    const results = await runDataset(dataset, { openCase: caseOpener({ fixture: largeFixture, now: new Date(dataset.now) }) });
    expect(results.map((result) => result.verdict)).toEqual(['correct', 'missed']);
    expect(results[1]!.reasons).toEqual(["the case failed to run: The case's actor 'bob' is not one of this fixture's: alice, anonymous."]);
  });
});
