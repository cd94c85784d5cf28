import { open } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { Option } from 'commander';
import type { Command } from 'commander';
import { SingleBar } from 'cli-progress';
import { isPlumbError } from '../../core/index.js';
import { actorNames, namedActor, splitConfig } from '../../config/index.js';
import type { LoadedConfig } from '../../config/index.js';
import {
  builtinFixture,
  evalFixtures,
  evalReportJson,
  formatComparison,
  formatEvalReport,
  hostFixture,
  packagedDatasetNames,
  resolveDataset,
  runEval,
  selectCases,
  traceLine,
} from '../../evals/index.js';
import type { CaseOutcome, EvalContender, EvalDataset, EvalFixture, EvalRunReport, OpenEvalFixture } from '../../evals/index.js';
import { loadCliConfig, openLoadedApp } from '../app-options.js';
import { contenderLabel, contenderProvider, parseContender } from '../eval-contender.js';
import type { ContenderSpec } from '../eval-contender.js';
import { addProviderOptions, checkProviderFlags, providerOverrides } from '../provider-options.js';
import type { ProviderOptions } from '../provider-options.js';
import { CliFailure, CliUsageError } from '../cli-errors.js';
import type { CliIo } from '../cli-io.js';

interface EvalOptions extends ProviderOptions {
  readonly config?: string;
  readonly dataset?: readonly string[];
  readonly fixture?: EvalFixture;
  readonly demo?: boolean;
  readonly tier?: string;
  readonly tag?: readonly string[];
  readonly compare?: string;
  readonly judge?: string;
  readonly traceJsonl?: string;
  readonly json?: boolean;
}

const collect = (value: string, previous: readonly string[] = []): string[] => [...previous, value];

/**
 * `plumb eval`: plays datasets of expected turns through the engine with no model, a scripted
 * one, or any provider, and scores each turn with the judges. Exit 0 when every selected case
 * passes, 1 when one fails, 2 for a usage or configuration problem.
 */
export function registerEvalCommand(program: Command, io: CliIo): void {
  const command = program
    .command('eval')
    .description('Play eval datasets through the engine (no model, a scripted one, or any provider) and score every turn')
    .option('--config <file>', 'configuration file: its provider, settings and app (default: the nearest plumb.config.*)')
    .option('--dataset <name|file>', 'a packaged dataset by name, or your own YAML file (repeatable; default: every packaged dataset over a built-in fixture)', collect)
    .addOption(new Option('--fixture <name>', "the data every dataset runs over: demo, large (150 managers), or app (the configured app); default: each dataset's").choices([...evalFixtures]))
    .option('--demo', 'run the datasets over the demo, as the other commands\' --demo (the same as --fixture demo)')
    .option('--tier <n>', 'only the cases of this tier (1 is the core)')
    .option('--tag <tag>', 'only cases with this tag (repeatable: every tag given)', collect)
    .option('--compare <a,b,...>', 'run the datasets with two contenders or more and print them side by side, a table per judge: router, scripted, a profile of providerProfiles, a provider, provider:model, or a model name')
    .option('--judge <spec>', 'the model that scores answer quality: a profile of providerProfiles, or provider:model; without it the quality judge is skipped')
    .option('--trace-jsonl <file>', 'write one JSON line per case: its turns, judges and every event')
    .option('--json', 'print the report as JSON');
  addProviderOptions(command).action(async (options: EvalOptions) => {
    const setup = await prepare(options);
    const trace = options.traceJsonl === undefined ? undefined : await openTrace(options.traceJsonl);
    try {
      const reports: EvalRunReport[] = [];
      for (const contender of setup.contenders) reports.push(await play(setup, contender, io, trace));
      if (options.json === true) io.stdout(`${JSON.stringify(reports.length === 1 ? evalReportJson(reports[0]!) : { contenders: reports.map(evalReportJson) }, null, 2)}\n`);
      else io.stdout(reports.length >= 2 ? `${reports.map(formatEvalReport).join('\n')}\n${formatComparison(reports[0]!, ...reports.slice(1))}` : formatEvalReport(reports[0]!));
      const failed = reports.reduce((sum, report) => sum + report.failed, 0);
      const total = reports.reduce((sum, report) => sum + report.cases.length - report.skipped, 0);
      if (total === 0) throw new CliFailure('no case ran: the selection is empty, or every case was skipped');
      if (failed > 0) throw new CliFailure(`${failed} of ${total} cases failed`);
    } finally {
      await trace?.close();
    }
  });
}

interface Setup {
  readonly loaded: LoadedConfig;
  readonly datasets: readonly EvalDataset[];
  readonly fixtureFor: (dataset: EvalDataset) => OpenEvalFixture;
  readonly contenders: readonly EvalContender[];
  readonly judge: EvalContender['provider'];
  readonly tier: number | undefined;
  readonly tags: readonly string[];
}

/** Everything a run needs, checked before any case plays: a problem here is a usage error (exit 2). */
async function prepare(options: EvalOptions): Promise<Setup> {
  try {
    const tier = parseTier(options.tier);
    if (options.compare !== undefined && options.provider === undefined && options.model !== undefined) {
      throw new CliUsageError('--model with --compare: name the models in --compare (openai:gpt-4o,openai:gpt-4o-mini)');
    }
    const loaded = await loadCliConfig({ ...(options.config === undefined ? {} : { config: options.config }) }, providerOverrides(options));
    checkProviderFlags(options, loaded.config.provider);
    const tags = options.tag ?? [];
    const given = options.dataset ?? (await packagedDatasetNames());
    const resolved = await Promise.all(given.map((name) => resolveDataset(name, process.cwd())));
    // The packaged held-out apps' datasets (fixture app) need their own --config: run by name only.
    const datasets = options.dataset === undefined ? resolved.filter((dataset) => dataset.fixture !== 'app') : resolved;
    const names = datasets.map((dataset) => dataset.name);
    if (options.demo === true && options.fixture !== undefined && options.fixture !== 'demo') throw new CliUsageError(`give --demo or --fixture ${options.fixture}, not both`);
    const fixtureFor = fixtures(loaded, options.demo === true ? 'demo' : options.fixture, datasets);
    const profiles = new Set(Object.keys(loaded.config.providerProfiles));
    const specs = options.compare === undefined ? [defaultSpec(loaded)] : compareSpecs(options.compare, profiles);
    const contenders: EvalContender[] = [];
    for (const spec of specs) {
      const provider = await contenderProvider(spec, loaded);
      contenders.push({ label: contenderLabel(spec, provider), provider, scripts: spec.kind !== 'router' });
    }
    const judgeSpec = options.judge === undefined ? undefined : parseContender(options.judge, profiles);
    if (judgeSpec !== undefined && (judgeSpec.kind === 'router' || judgeSpec.kind === 'scripted')) throw new CliUsageError(`--judge needs a model (a profile or provider:model), not '${options.judge ?? ''}'`);
    const judge = judgeSpec === undefined ? undefined : await contenderProvider(judgeSpec, loaded);
    const selected = datasets.reduce((sum, dataset) => sum + selectCases(dataset, { tier, tags }).length, 0);
    if (selected === 0) throw new CliUsageError(`no case matches${tier === undefined ? '' : ` --tier ${tier}`}${tags.map((tag) => ` --tag ${tag}`).join('')} in ${names.join(', ')}`);
    return { loaded, datasets, fixtureFor, contenders, judge, tier, tags };
  } catch (error) {
    if (isPlumbError(error)) throw new CliUsageError(`${error.code}: ${error.message}`);
    throw error;
  }
}

/** With nothing given: the configured provider, or no model (the router, and each case's script). */
function defaultSpec(loaded: LoadedConfig): ContenderSpec {
  return loaded.config.provider === null ? { kind: 'scripted' } : { kind: 'provider', provider: undefined, model: undefined };
}

function compareSpecs(value: string, profiles: ReadonlySet<string>): ContenderSpec[] {
  const parts = value.split(',').map((part) => part.trim());
  if (parts.length < 2 || parts.some((part) => part === '')) throw new CliUsageError(`--compare takes two contenders or more separated by commas (router,scripted,openai:gpt-4o-mini), got '${value}'`);
  return parts.map((part) => parseContender(part, profiles));
}

function parseTier(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const tier = Number(value);
  if (!Number.isInteger(tier) || tier < 1 || tier > 9) throw new CliUsageError(`--tier must be an integer from 1 to 9, got '${value}'`);
  return tier;
}

/** Which data each dataset runs over; `app` needs a configured app, checked now. */
function fixtures(loaded: LoadedConfig, override: EvalFixture | undefined, datasets: readonly EvalDataset[]): (dataset: EvalDataset) => OpenEvalFixture {
  const wanted = (dataset: EvalDataset): EvalFixture => override ?? dataset.fixture;
  const app = datasets.find((dataset) => wanted(dataset) === 'app');
  if (app !== undefined && loaded.host === undefined) {
    const where = loaded.file === undefined ? `no plumb.config.* was found from ${loaded.root} upward` : `${loaded.file} sets no app`;
    throw new CliUsageError(`the dataset '${app.name}' runs over your app (fixture: app), and ${where}: give --config with an app, or --fixture demo`);
  }
  const { config } = loaded;
  const hostData = hostFixture(async () => (await openLoadedApp(loaded, {})).opened, { names: actorNames(config), find: (name) => namedActor(config, name) });
  return (dataset) => {
    const name = wanted(dataset);
    return name === 'app' ? hostData : builtinFixture(name);
  };
}

async function play(setup: Setup, contender: EvalContender, io: CliIo, trace: FileHandle | undefined): Promise<EvalRunReport> {
  const { engine, tools } = splitConfig(setup.loaded.config);
  const total = setup.datasets.reduce((sum, dataset) => sum + selectCases(dataset, setup).length, 0);
  const progress = progressOf(io, total, contender.label);
  try {
    return await runEval({
      datasets: setup.datasets,
      fixtureFor: setup.fixtureFor,
      contender,
      judge: setup.judge,
      tier: setup.tier,
      tags: setup.tags,
      engineSettings: engine,
      // The configured tool settings are your app's; the demo and the large schema keep their own.
      toolSettings: setup.loaded.host === undefined ? undefined : tools,
      onCase: async (outcome) => {
        progress(outcome);
        if (trace !== undefined) await trace.write(traceLine(outcome));
      },
    });
  } finally {
    progress(null);
  }
}

/** A bar on a terminal; one line per case otherwise (on stderr, so `--json` stays clean). `null` ends it. */
function progressOf(io: CliIo, total: number, label: string): (outcome: CaseOutcome | null) => void {
  if (io.stderrIsTTY === true) {
    const bar = new SingleBar({ format: `${label} [{bar}] {value}/{total} cases · {failed} failed · {case}`, stream: process.stderr, hideCursor: true, clearOnComplete: true });
    let failed = 0;
    bar.start(total, 0, { failed, case: '' });
    return (outcome) => {
      if (outcome === null) return bar.stop();
      if (outcome.status === 'failed') failed++;
      bar.increment({ failed, case: `${outcome.dataset}/${outcome.caseId}` });
    };
  }
  let done = 0;
  return (outcome) => {
    if (outcome === null) return;
    done++;
    const mark = outcome.status === 'passed' ? 'pass' : outcome.status === 'failed' ? 'FAIL' : 'skip';
    io.stderr(`[${done}/${total}] ${mark} ${outcome.dataset}/${outcome.caseId}${outcome.status === 'skipped' ? ` (${outcome.skipped ?? ''})` : ` ${outcome.durationMs} ms`}\n`);
  };
}

async function openTrace(path: string): Promise<FileHandle> {
  try {
    return await open(path, 'w');
  } catch (error) {
    throw new CliUsageError(`cannot write the trace file '${path}': ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}
