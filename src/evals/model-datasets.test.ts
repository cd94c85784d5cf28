import { describe, expect, it } from 'vitest';
import { builtinFixture, resolveDataset, runEval } from './index.js';
import type { EvalContender, EvalDataset, OpenEvalFixture } from './index.js';

/**
 * The model-oriented datasets (issue 31): played by each case's ideal-model script they pass in
 * full, which shows every contract is satisfiable through the discovery and read tools; played by
 * the router alone every case needs a model and is skipped, and the report still comes out.
 */
const idealModel: EvalContender = { label: 'ideal model', provider: undefined, scripts: true };
const routerAlone: EvalContender = { label: 'router', provider: undefined, scripts: false };

function builtinOf(dataset: EvalDataset): OpenEvalFixture {
  if (dataset.fixture === 'app') throw new Error(`${dataset.name} runs over an app; these datasets run over a built-in fixture`);
  return builtinFixture(dataset.fixture);
}

describe.each(['model-basics', 'model-discovery'])('the packaged dataset %s', (name) => {
  it('passes every case and every judge with its ideal-model scripts', async () => {
    const dataset = await resolveDataset(name, process.cwd());
    const report = await runEval({ datasets: [dataset], fixtureFor: builtinOf, contender: idealModel });
    const failing = report.cases.filter((item) => item.status !== 'passed').map((item) => `${item.caseId}: ${item.turns.flatMap((turn) => turn.reasons).join('; ')}`);
    expect(failing).toEqual([]);
    expect(report.cases.length).toBeGreaterThanOrEqual(5);
    for (const judge of ['contract', 'accuracy'] as const) {
      expect(report.judges[judge].fail).toBe(0);
      expect(report.judges[judge].pass).toBeGreaterThan(0);
    }
    // The ideal model discovers before it reads: some case calls a discovery tool.
    const tools = report.cases.flatMap((item) => item.turns.flatMap((turn) => turn.observed.calls.map((call) => call.tool)));
    expect(tools).toContain('search_managers');
  }, 120_000);

  it('produces a report with the router alone, every case skipped for want of a model', async () => {
    const dataset = await resolveDataset(name, process.cwd());
    const report = await runEval({ datasets: [dataset], fixtureFor: builtinOf, contender: routerAlone });
    expect(report.contender).toBe('router');
    expect(report.cases).toHaveLength(dataset.cases.length);
    expect(report.skipped).toBe(dataset.cases.length);
  }, 120_000);
});

describe('the judges score the run, not the script', () => {
  it('fails model-basics cases whose script answers without the discovery or the read it needs', async () => {
    const dataset = await resolveDataset('model-basics', process.cwd());
    // The ideal model's final answers, with every tool call dropped: the same words, no evidence behind them.
    const cases = dataset.cases.map((item) => (item.script === undefined ? item : { ...item, script: { ...item.script, completions: item.script.completions.filter((completion) => (completion.toolCalls ?? []).length === 0) } }));
    const report = await runEval({ datasets: [{ ...dataset, cases }], fixtureFor: builtinOf, contender: idealModel });
    const failed = report.cases.filter((item) => item.status === 'failed').map((item) => item.caseId);
    // Only the ambiguous question, which must be answered with no call at all, still passes.
    expect(failed).toEqual(dataset.cases.map((item) => item.id).filter((id) => id !== 'edge-ambiguous'));
  }, 120_000);
});
