import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../index.js';
import { WIRE_FIXTURES } from '../../providers/test-support/wire-fixtures.js';
import { WireServer } from '../../providers/test-support/wire-server.js';
import { tempDirEach } from '../../../test/support/temp.js';

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { stdout: (t: string) => void out.push(t), stderr: (t: string) => void err.push(t) }, out, err };
}

const openai = WIRE_FIXTURES.find((fixture) => fixture.name === 'openai')!;

/** A dataset of one model case over the demo: the model reads order 4411 and states its total. */
const modelDataset = `
name: my-cases
now: '2026-11-30T10:00:00Z'
cases:
  - id: order-total
    actor: alice
    language: en
    needs: model
    tags: [mine]
    turns:
      - text: of the customers with pending orders, whose order came to the most?
        kind: read
        expect:
          requiredTools: [query]
          sequence: { tools: [query] , order: strict }
          results: [{ tool: query, rows: 1, includes: [{ total: '74.00' }] }]
          facts: ['74.00']
          quality: { rubric: Names the order with the largest total and states that total. }
`;

describe('plumb eval', () => {
  const dir = tempDirEach('plumb-eval-');
  const servers: WireServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });

  it('plays a packaged dataset with each case\'s scripts and exits 0 when every case passes', async () => {
    const { io, out, err } = capture();
    expect(await runCli(['eval', '--dataset', 'planned-orchestration'], io)).toBe(0);
    expect(out.join('')).toContain('cases: 16 passed, 0 failed, 0 skipped (of 16)');
    // Not a terminal: one plain line per case on stderr.
    expect(err.join('').split('\n').filter((line) => /^\[\d+\/16\] pass /.test(line))).toHaveLength(16);
  });

  it('selects cases by tier and by every tag given, and skips the cases that need a model when the run has none', async () => {
    const { io, out } = capture();
    expect(await runCli(['eval', '--dataset', 'large-schema', '--tag', 'router'], io)).toBe(0);
    expect(out.join('')).toContain('cases: 2 passed, 0 failed, 0 skipped (of 2)');
    const tiered = capture();
    expect(await runCli(['eval', '--dataset', 'large-schema', '--tier', '2', '--compare', 'router,scripted'], tiered.io)).toBe(0);
    expect(tiered.out.join('')).toContain('large-schema/disk-organization-contoso: skipped → passed');
  });

  it('compares three contenders on a model-oriented dataset, a table per judge, and says which cases differ from the first', async () => {
    const { io, out } = capture();
    expect(await runCli(['eval', '--dataset', 'model-discovery', '--compare', 'router,scripted,scripted'], io)).toBe(0);
    const text = out.join('');
    expect(text).toContain('plumb eval --compare: router (no model) vs scripted');
    for (const judge of ['contract', 'sequence', 'accuracy', 'resultSet', 'quality']) expect(text).toContain(`judge ${judge}:`);
    expect(text).toMatch(/\| pass rate \| — \| 9\/9 \(100%\) \| 9\/9 \(100%\) \|/);
    expect(text.match(/cases that differ \(8\)/g)).toHaveLength(2);
    expect(text).toContain('model-discovery/rack-disks: skipped → passed');
  });

  it('exits 1 when a case fails, saying which judge failed and why', async () => {
    const file = join(dir.path, 'wrong.yaml');
    writeFileSync(file, `name: wrong\nnow: '2026-11-30T10:00:00Z'\ncases:\n  - id: steel\n    actor: alice\n    language: en\n    turns:\n      - text: show me all materials\n        kind: read\n        expect: { outcome: run, facts: [Unobtainium] }\n`);
    const { io, out, err } = capture();
    expect(await runCli(['eval', '--dataset', file], io)).toBe(1);
    expect(out.join('')).toContain("contract: answer lacks 'Unobtainium'");
    expect(err.join('')).toContain('plumb: 1 of 1 cases failed');
  });

  it('writes one JSON line per case with every event to --trace-jsonl, and the report as JSON with --json', async () => {
    const trace = join(dir.path, 'trace.jsonl');
    const { io, out } = capture();
    expect(await runCli(['eval', '--dataset', 'large-schema', '--json', '--trace-jsonl', trace], io)).toBe(0);
    const report = JSON.parse(out.join('')) as { passed: number; cases: { caseId: string; turns: { judges: { judge: string; status: string }[]; observed: Record<string, unknown> }[] }[] };
    expect(report.passed).toBe(5);
    expect(report.cases[0]!.turns[0]!.judges.map((judge) => judge.judge)).toEqual(['contract', 'sequence', 'accuracy', 'resultSet', 'quality']);
    expect(report.cases[0]!.turns[0]!.observed).not.toHaveProperty('trace');
    const lines = readFileSync(trace, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { dataset: string; caseId: string; status: string; turns: { observed: { trace: { type: string }[] } }[] });
    expect(lines.map((line) => line.caseId)).toEqual(report.cases.map((item) => item.caseId));
    expect(lines[0]).toMatchObject({ dataset: 'large-schema', status: 'passed' });
    expect(lines[0]!.turns[0]!.observed.trace.map((event) => event.type)).toContain('tool_call');
  });

  it('runs a real provider over its wire format, with a judge model (a profile) scoring quality', async () => {
    const model = await WireServer.start();
    const judge = await WireServer.start();
    servers.push(model, judge);
    model.reply(openai.call('call_1', 'query', { manager: 'Order', filters: { id: 4411 }, fields: ['id', 'total'] }, [50, 10]), openai.text(['Order 4411 came to 74.00.'], [80, 9]));
    judge.reply(openai.text(['{"score": 5, "reason": "It states 74.00."}'], [30, 5]));
    const file = join(dir.path, 'mine.yaml');
    writeFileSync(file, modelDataset);
    const config = join(dir.path, 'plumb.config.json');
    writeFileSync(
      config,
      JSON.stringify({
        provider: 'openai',
        providerConfig: { baseUrl: model.url, apiKey: 'sk-test', model: 'gpt-test' },
        providerProfiles: { judge: { provider: 'openai', providerConfig: { baseUrl: judge.url, apiKey: 'sk-test', model: 'judge-model' } } },
      }),
    );
    const { io, out } = capture();
    const code = await runCli(['eval', '--config', config, '--dataset', file, '--judge', 'judge'], io);
    expect(code).toBe(0);
    expect(out.join('')).toContain('plumb eval: openai:gpt-test');
    expect(out.join('')).toContain('quality 1/1');
    const asked = JSON.stringify(judge.requests[0]!.body);
    expect(asked).toContain('Rubric: Names the order with the largest total and states that total.');
    expect(asked).toContain('74.00');
    // A score below the rubric's minimum fails the case, with the judge's reason.
    model.reply(openai.call('call_1', 'query', { manager: 'Order', filters: { id: 4411 }, fields: ['id', 'total'] }, [50, 10]), openai.text(['Order 4411 came to 74.00.'], [80, 9]));
    judge.reply(openai.text(['{"score": 2, "reason": "Too roundabout."}'], [30, 5]));
    const low = capture();
    expect(await runCli(['eval', '--config', config, '--dataset', file, '--judge', 'judge'], low.io)).toBe(1);
    expect(low.out.join('')).toContain('quality: quality 2/5, below 4: Too roundabout.');
  });

  it.each([
    [['--dataset', 'nope'], /^plumb: eval_dataset_unknown: Unknown dataset 'nope': give a file path \(\.\/my-cases\.yaml\) or one of brewery, demo-default, /],
    [['--dataset', './missing.yaml'], /^plumb: eval_dataset_unreadable: Cannot read the dataset '.*missing\.yaml': ENOENT/],
    [['--tier', 'two'], /^plumb: --tier must be an integer from 1 to 9, got 'two'/],
    [['--dataset', 'large-schema', '--tag', 'absent'], /^plumb: no case matches --tag absent in large-schema/],
    [['--compare', 'router'], /^plumb: --compare takes two contenders or more separated by commas/],
    [['--fixture', 'app', '--dataset', 'large-schema'], /^plumb: the dataset 'large-schema' runs over your app \(fixture: app\)/],
    [['--fixture', 'moon'], /^plumb: option '--fixture <name>' argument 'moon' is invalid/],
    [['--demo', '--fixture', 'large'], /^plumb: give --demo or --fixture large, not both/],
    [['--judge', 'router'], /^plumb: --judge needs a model \(a profile or provider:model\), not 'router'/],
    [['--compare', 'gpt-4o,gpt-4o-mini'], /^plumb: the model 'gpt-4o' needs a provider: give --provider, or name it as provider:model/],
    [['--dataset', 'large-schema', '--trace-jsonl', '/nonexistent/dir/trace.jsonl'], /^plumb: cannot write the trace file '\/nonexistent\/dir\/trace\.jsonl': ENOENT/],
  ])('exits 2 with a one-line reason for %j', async (args, message) => {
    const { io, err } = capture();
    expect(await runCli(['eval', ...args], io)).toBe(2);
    const text = err.join('');
    expect(text).toMatch(message);
    expect(text.trim().split('\n')).toHaveLength(1);
    expect(text).not.toMatch(/\n\s+at /);
  });

  it('leaves the held-out app datasets out of the default run: they run by name, with their app', async () => {
    const { io, err } = capture();
    expect(await runCli(['eval', '--tag', 'absent'], io)).toBe(2);
    const text = err.join('');
    expect(text).toMatch(/^plumb: no case matches --tag absent in .*demo-default/);
    for (const name of ['league', 'brewery', 'observatory']) expect(text).not.toContain(name);
  });

  it('runs a dataset over the demo with --demo, as the other commands do', async () => {
    const file = join(dir.path, 'over-app.yaml');
    writeFileSync(file, `name: over-app\nnow: '2026-11-30T10:00:00Z'\nfixture: app\ncases:\n  - id: one-order\n    actor: alice\n    language: en\n    turns:\n      - text: show me order 4411\n        kind: read\n        expect: { outcome: run, calls: [{ tool: get_order }], facts: ['4411'] }\n`);
    const refused = capture();
    expect(await runCli(['eval', '--dataset', file], refused.io)).toBe(2);
    const { io, out } = capture();
    expect(await runCli(['eval', '--demo', '--dataset', file], io)).toBe(0);
    expect(out.join('')).toContain('cases: 1 passed, 0 failed');
  });

  it('exits 2 for a dataset that does not match the shape, naming the path of each problem', async () => {
    const file = join(dir.path, 'bad.yaml');
    writeFileSync(file, `name: bad\nnow: '2026-11-30T10:00:00Z'\ncases:\n  - id: a\n    actor: alice\n    language: en\n    tier: 12\n    turns: [{ text: hi, kind: read, expect: { sequence: { tools: [] } } }]\n`);
    const { io, err } = capture();
    expect(await runCli(['eval', '--dataset', file], io)).toBe(2);
    expect(err.join('')).toMatch(/eval_dataset_invalid: .*cases\.0\.tier: .*cases\.0\.turns\.0\.expect\.sequence\.tools/);
  });
});
