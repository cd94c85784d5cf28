/**
 * `npm run bench -- default [--dataset demo-default|demo-holdout] [--store memory|sqlite] [--case <id part>] [--no-language] [--json <file>]`
 *
 * The embedded default, measured: plays `evals/datasets/demo-default.yaml` through the engine with
 * the demo's app reader and no provider (each case on a fresh seeded demo), and prints coverage,
 * precision, the must-be-unread share, a breakdown by kind and language, and every failing turn with
 * why. Targets: precision 100%, coverage ≥ 90%, every must-be-unread turn unread. `--dataset
 * demo-holdout` plays the held-out phrasings instead (written after the first measurement).
 * `--no-language` sends no language with the turns (the router picks it from the words).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { caseOpener, demoConfirmedTools, demoFixture, formatReport, loadDataset, metricsOf, runDataset } from '../src/evals/index.js';
import type { TurnResult } from '../src/evals/index.js';
import type { Benchmark } from './harness.js';
import { machineLine, option, printTable, summarize } from './harness.js';

const DATASETS = join(import.meta.dirname, '..', 'evals', 'datasets');

/** Case ids written `<prefix>-<family>-…` (the fresh held-out sets): the measures per family of question. */
function printFamilies(results: readonly TurnResult[]): void {
  const family = (caseId: string): string | null => /^[a-z0-9]+-([a-z]+)-/.exec(caseId)?.[1] ?? null;
  const groups = new Map<string, TurnResult[]>();
  for (const result of results) {
    const name = family(result.caseId);
    if (name === null) return;
    groups.set(name, [...(groups.get(name) ?? []), result]);
  }
  const rows = [...groups.entries()].map(([name, group]) => {
    const m = metricsOf(group);
    const wrong = group.filter((r) => r.answered && r.verdict !== 'correct').length;
    return [name, String(m.turns), `${m.answeredOfMeant}/${m.meantAnswered}`, String(m.correct), String(wrong), m.mustBeUnread === 0 ? '—' : `${m.leftUnread}/${m.mustBeUnread}`];
  });
  printTable('By family (every turn of a case counts in its family)', ['family', 'turns', 'answered / meant', 'fully correct', 'wrong', 'must-be-unread left unread'], rows);
}

const benchmark: Benchmark = {
  name: 'default',
  async run(args) {
    const store = option(args, '--store') === 'sqlite' ? 'sqlite' : 'memory';
    const only = option(args, '--case');
    const name = option(args, '--dataset') ?? 'demo-default';
    if (!/^[a-z0-9-]+$/.test(name)) throw new Error(`--dataset takes a name such as demo-holdout, not '${name}'`);
    const dataset = await loadDataset(join(DATASETS, `${name}.yaml`));
    const directory = store === 'sqlite' ? mkdtempSync(join(tmpdir(), 'plumb-bench-default-')) : undefined;
    const caseMs: number[] = [];
    let last = performance.now();
    try {
      const started = performance.now();
      const results = await runDataset(dataset, {
        openCase: caseOpener({ fixture: demoFixture, now: new Date(dataset.now), store, ...(directory === undefined ? {} : { directory }) }),
        confirmedTools: demoConfirmedTools(),
        sendLanguage: !args.includes('--no-language'),
        ...(only === undefined ? {} : { filter: (item) => item.id.includes(only) }),
        onCase: () => {
          const now = performance.now();
          caseMs.push(now - last);
          last = now;
        },
      });
      const wallMs = performance.now() - started;
      const title = `${dataset.name}${args.includes('--no-language') ? ' (no language sent)' : ''} — ${machineLine()}`;
      console.log(`\n${formatReport(results, title)}`);
      const m = metricsOf(results);
      printFamilies(results);
      const perCase = summarize(caseMs);
      printTable('Run', ['cases', 'turns', 'store', 'wall s', 'median ms per case (fresh demo, reader, engine)', 'p99 ms per case'], [
        [String(caseMs.length), String(m.turns), store, wallMs / 1000, perCase.median, perCase.p99],
      ]);
      const json = option(args, '--json');
      if (json !== undefined) writeFileSync(json, `${JSON.stringify({ metrics: m, results }, null, 2)}\n`);
    } finally {
      if (directory !== undefined) rmSync(directory, { recursive: true, force: true });
    }
  },
};

export default benchmark;
