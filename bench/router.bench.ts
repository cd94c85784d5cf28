/**
 * `npm run bench -- router`: the deterministic router's latency (demo and a synthetic 200-tool
 * catalogue), its precision on public function-calling cases (BFCL sample) and its Portuguese date
 * and number recognition (Recognizers-Text sample). The acceptance data sits at
 * `../shared/acceptance/` relative to the repository root; a part whose data is absent is skipped.
 */
import { existsSync, readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { demoCatalogue, demoRulebookYaml, demoVocabularyYaml } from '../src/demo/router/index.js';
import type { CatalogueEntry, JsonSchema, TurnPlan } from '../src/router/index.js';
import { createRouter, findPortugueseNumbers, readDates } from '../src/router/index.js';
import type { Benchmark } from './harness.js';
import { machineLine, measureSync, printTable, summarize } from './harness.js';

const here = dirname(fileURLToPath(import.meta.url));
const ACCEPTANCE = resolve(here, '..', '..', 'shared', 'acceptance');
const SECRET = 'bench-secret-0123456789abcdef';
const TURNS = 10_000;

const DEMO_TURNS = [
  'show me order 4411',
  'show me orders 4411 and 4412',
  'charge order 4411 40.00',
  'charge order 4411',
  'send the receipt for order 4411 to ana@example.com',
  'send the receipt for order 4411 to https://receipts.invalid/drop',
  'create a project called Alpha and then add a task "Write the brief" to it',
  'am I free on Thursday afternoon?',
  'what is on my calendar tomorrow at 3pm',
  'what is the average total of orders 4411 and 4412',
  'zork the frobnicator',
  'refund 10.00 on order 4412',
];
const DEMO_TURNS_PT = ['mostre o pedido 4411', 'cobre o pedido 4411 no valor de 40,00', 'estou livre quinta à tarde?', 'crie um projeto chamado Alpha e depois adicione uma tarefa "Escrever" nele'];

const NOUNS = ['invoice', 'customer', 'ticket', 'shipment', 'product', 'supplier', 'contract', 'payment', 'employee', 'meeting', 'report', 'warehouse', 'campaign', 'lead', 'refund', 'coupon', 'subscription', 'device', 'branch', 'vehicle', 'course', 'booking', 'review', 'document', 'account'];
const VERBS: readonly (readonly [string, 'read' | 'write'])[] = [['get', 'read'], ['list', 'read'], ['create', 'write'], ['update', 'write'], ['delete', 'write'], ['archive', 'write'], ['search', 'read'], ['count', 'read']];

function syntheticCatalogue(): { catalogue: CatalogueEntry[]; vocabulary: string; turns: string[] } {
  const catalogue: CatalogueEntry[] = [];
  const vocabularyLines = ['settings:', '  language: en', 'languages:', '  en:', '    tools:'];
  for (const noun of NOUNS) {
    for (const [verb, effect] of VERBS) {
      const name = `${verb}_${noun}`;
      catalogue.push({
        name,
        description: `${verb} ${noun} records of the business.`,
        parameters: { type: 'object', properties: { [`${noun}_id`]: { type: 'string', pattern: '^[0-9]+$' }, note: { type: 'string' } }, required: verb === 'list' || verb === 'count' ? [] : [`${noun}_id`] },
        effect: effect === 'read' ? 'read' : 'write',
      });
      vocabularyLines.push(`      ${name}: { triggers: ["${verb} ${noun}", "${verb} the ${noun}"] }`);
    }
  }
  const turns = NOUNS.flatMap((noun, i) => [`get ${noun} ${1000 + i}`, `please update the ${noun} ${2000 + i} with note "ok"`, `list ${noun}s`, `what about the weather in Paris`]);
  return { catalogue, vocabulary: vocabularyLines.join('\n'), turns };
}

function latency(): void {
  const demo = createRouter({ catalogue: demoCatalogue, rulebook: demoRulebookYaml, vocabulary: demoVocabularyYaml, secret: SECRET });
  const now = { now: '2026-10-19T09:00:00+01:00' };
  const mixed = [...DEMO_TURNS.map((t) => [t, 'en'] as const), ...DEMO_TURNS_PT.map((t) => [t, 'pt-BR'] as const)];
  const demoSamples = measureSync(TURNS, (i) => {
    const [turn, language] = mixed[i % mixed.length] as readonly [string, 'en' | 'pt-BR'];
    return demo.plan(turn, { language, context: now });
  });
  const synthetic = syntheticCatalogue();
  const big = createRouter({ catalogue: synthetic.catalogue, vocabulary: synthetic.vocabulary, secret: SECRET });
  const bigSamples = measureSync(TURNS, (i) => big.plan(synthetic.turns[i % synthetic.turns.length] as string, { context: now }));
  const chat = demo.session({ context: now });
  const sessionSamples = measureSync(TURNS, (i) => chat.read(mixed[i % 12]?.[0] ?? ''), 200);
  const row = (name: string, tools: number, samples: number[]): (string | number)[] => {
    const micro = samples.map((ms) => ms * 1000);
    const s = summarize(micro);
    const sorted = [...micro].sort((a, b) => a - b);
    const p95 = sorted[Math.ceil(0.95 * sorted.length) - 1] ?? NaN;
    return [name, tools, s.count, s.median, p95, s.p99, s.mean];
  };
  printTable(`Router latency per turn (µs) — ${machineLine()}`, ['catalogue', 'tools', 'turns', 'median µs', 'p95 µs', 'p99 µs', 'mean µs'], [
    row('demo (en + pt-BR turns)', demoCatalogue.length, demoSamples),
    row('synthetic', synthetic.catalogue.length, bigSamples),
    row('demo, in a session', demoCatalogue.length, sessionSamples),
  ]);
  console.log(`\nload average while measuring: ${loadavg().map((l) => l.toFixed(1)).join(', ')} on ${cpus().length} cores (a p99 far above p95 is the machine's other work preempting the process)`);
}

// ---------------------------------------------------------------- BFCL

interface BfclCase {
  readonly id: string;
  readonly question: readonly (readonly { readonly role: string; readonly content: string }[])[];
  readonly function: readonly { readonly name: string; readonly description: string; readonly parameters: JsonSchema }[];
}
type Expected = readonly Readonly<Record<string, Readonly<Record<string, readonly unknown[]>>>>[];

function readJsonl<T>(file: string): T[] {
  return readFileSync(file, 'utf8').split('\n').filter((line) => line.trim().length > 0).map((line) => JSON.parse(line) as T);
}

const normalize = (text: string): string => text.replace(/[ ,./\-_*^'"]/g, '').toLowerCase();

function sameValue(ours: unknown, expected: unknown): boolean {
  if (typeof expected === 'string' && typeof ours === 'string') return normalize(expected) === normalize(ours);
  if (typeof expected === 'number' && (typeof ours === 'number' || typeof ours === 'string')) return Number(ours) === expected;
  if (Array.isArray(expected) && Array.isArray(ours)) return expected.length === ours.length && expected.every((e, i) => sameValue(ours[i], e));
  if (typeof expected === 'object' && expected !== null && typeof ours === 'object' && ours !== null) {
    const e = expected as Record<string, unknown>;
    const o = ours as Record<string, unknown>;
    return Object.keys(e).every((k) => Array.isArray(e[k]) ? (e[k] as unknown[]).some((v) => sameValue(o[k], v)) || ((e[k] as unknown[]).includes('') && !(k in o)) : sameValue(o[k], e[k]));
  }
  return ours === expected;
}

function callMatches(tool: string, args: Readonly<Record<string, unknown>>, expected: Readonly<Record<string, Readonly<Record<string, readonly unknown[]>>>>): boolean {
  const [name, params] = Object.entries(expected)[0] ?? ['', {}];
  if (tool !== name) return false;
  for (const key of Object.keys(args)) if (!(key in params)) return false;
  for (const [key, acceptable] of Object.entries(params)) {
    if (!(key in args)) {
      if (!acceptable.includes('')) return false;
    } else if (!acceptable.some((value) => value !== '' && sameValue(args[key], value))) return false;
  }
  return true;
}

function planMatches(plan: TurnPlan, expected: Expected): boolean {
  const calls = plan.steps.filter((s) => s.kind === 'tool');
  if (calls.length !== expected.length) return false;
  const used = new Set<number>();
  const assign = (i: number): boolean => {
    if (i === calls.length) return true;
    const call = calls[i];
    for (let j = 0; j < expected.length; j++) {
      if (used.has(j) || call === undefined || call.selection.tool === null) continue;
      if (callMatches(call.selection.tool, call.selection.arguments, expected[j] as Expected[number])) {
        used.add(j);
        if (assign(i + 1)) return true;
        used.delete(j);
      }
    }
    return false;
  };
  return assign(0);
}

/** A split of the public function-calling data: the sample beside the manifest, or the development split in `dev/`. */
interface Split {
  readonly name: 'sample' | 'dev';
  readonly folder: string;
  readonly categories: readonly string[];
  readonly file: (category: string, answers: boolean) => string;
}

const IRRELEVANCE = new Set(['irrelevance', 'live_irrelevance']);

function splits(): Split[] {
  const folder = join(ACCEPTANCE, 'bfcl');
  return [
    {
      name: 'sample',
      folder,
      categories: ['simple_python', 'multiple', 'parallel', 'parallel_multiple', 'live_simple', 'live_parallel', 'irrelevance'],
      file: (category, answers) => join(folder, `BFCL_v4_${category}.sample${answers ? '.answer' : ''}.jsonl`),
    },
    {
      name: 'dev',
      folder: join(folder, 'dev'),
      categories: ['simple_python', 'multiple', 'parallel', 'parallel_multiple', 'live_simple', 'live_multiple', 'live_parallel_multiple', 'irrelevance', 'live_irrelevance'],
      file: (category, answers) => join(folder, 'dev', `BFCL_v4_${category}.dev${answers ? '.answer' : ''}.jsonl`),
    },
  ];
}

/** What one split scored, for its table and for the summary line. */
interface SplitScore {
  readonly rows: (string | number)[][];
  readonly wrong: string[];
  readonly reasons: string[];
}

function scoreSplit(split: Split, why: boolean): SplitScore {
  const rows: (string | number)[][] = [];
  const totals = { cases: 0, run: 0, correct: 0, irrelevant: 0, irrelevantRun: 0 };
  const wrong: string[] = [];
  const reasons: string[] = [];
  for (const category of split.categories) {
    const questions = split.file(category, false);
    if (!existsSync(questions)) continue;
    const answersFile = split.file(category, true);
    const answers = new Map(existsSync(answersFile) ? readJsonl<{ id: string; ground_truth: Expected }>(answersFile).map((a) => [a.id, a.ground_truth]) : []);
    const irrelevance = IRRELEVANCE.has(category);
    let run = 0;
    let correct = 0;
    const cases = readJsonl<BfclCase>(questions);
    for (const item of cases) {
      const catalogue: CatalogueEntry[] = item.function.map((f) => ({ name: f.name, description: f.description ?? '', parameters: { ...f.parameters, type: 'object' }, effect: 'read' }));
      let plan: TurnPlan;
      try {
        const router = createRouter({ catalogue, secret: SECRET });
        const turn = item.question[0]?.filter((m) => m.role === 'user').at(-1)?.content ?? '';
        plan = router.plan(turn);
      } catch (error) {
        wrong.push(`${item.id}: router refused the catalogue: ${(error as Error).message}`);
        continue;
      }
      if (plan.outcome !== 'run') {
        // The rule each step of a plan that does not run was decided by: where to look for the next reading rule.
        if (why && !irrelevance) reasons.push(`${item.id}: ${plan.outcome} — ${plan.steps.map((s) => s.decidedBy).join(' | ')}`);
        continue;
      }
      run++;
      if (irrelevance) {
        wrong.push(`${item.id} (irrelevance, run): ${JSON.stringify(plan.steps.map((s) => [s.selection.tool, s.selection.arguments]))}`);
        continue;
      }
      const expected = answers.get(item.id);
      if (expected !== undefined && planMatches(plan, expected)) correct++;
      else if (expected !== undefined) wrong.push(`${item.id}: ${JSON.stringify(plan.steps.map((s) => [s.selection.tool, s.selection.arguments]))} — expected ${JSON.stringify(expected)}`);
    }
    if (irrelevance) {
      totals.irrelevant += cases.length;
      totals.irrelevantRun += run;
      rows.push([category, cases.length, '—', '—', `${(((cases.length - run) / cases.length) * 100).toFixed(1)}% not run`]);
    } else {
      totals.cases += cases.length;
      totals.run += run;
      totals.correct += correct;
      rows.push([category, cases.length, `${((run / cases.length) * 100).toFixed(1)}% (${run})`, run === 0 ? '— (0 run)' : `${((correct / run) * 100).toFixed(1)}% (${correct}/${run})`, '']);
    }
  }
  rows.push([
    'all but irrelevance',
    totals.cases,
    totals.cases === 0 ? '—' : `${((totals.run / totals.cases) * 100).toFixed(1)}% (${totals.run})`,
    totals.run === 0 ? '—' : `${((totals.correct / totals.run) * 100).toFixed(1)}% (${totals.correct}/${totals.run})`,
    totals.irrelevant === 0 ? '' : `${(((totals.irrelevant - totals.irrelevantRun) / totals.irrelevant) * 100).toFixed(1)}% of ${totals.irrelevant} not run`,
  ]);
  return { rows, wrong, reasons };
}

function bfcl(why: boolean, only: ReadonlySet<string>): void {
  if (!existsSync(join(ACCEPTANCE, 'bfcl'))) {
    console.log(`\nBFCL: skipped — ${join(ACCEPTANCE, 'bfcl')} is absent (the acceptance data lives at ../shared/acceptance/bfcl relative to the repository).`);
    return;
  }
  const chosen = splits().filter((s) => existsSync(s.folder) && (only.has(s.name) || (!only.has('sample') && !only.has('dev'))));
  for (const split of chosen) {
    const score = scoreSplit(split, why);
    printTable(`BFCL ${split.name}: coverage (share read to run) and precision (share of run plans fully correct)`, ['category', 'cases', 'coverage', 'precision', 'irrelevance'], score.rows);
    if (score.wrong.length > 0) console.log(`\nNot correct (${split.name}):\n${score.wrong.map((w) => `- ${w}`).join('\n')}`);
    if (why) console.log(`\nNot run (${split.name}), and why (the rules of each step):\n${score.reasons.map((r) => `- ${r}`).join('\n')}`);
  }
}

// ---------------------------------------------------------------- Recognizers-Text (pt)

interface DateCase {
  readonly Input: string;
  readonly Context?: { readonly ReferenceDateTime?: string };
  readonly Results: readonly { readonly Text: string; readonly TypeName: string; readonly Resolution: { readonly values: readonly Record<string, string>[] } }[];
}
interface NumberCase {
  readonly Input: string;
  readonly Results: readonly { readonly Text: string; readonly Resolution: { readonly value: string } }[];
}

function readBomJson<T>(file: string): T {
  return JSON.parse(readFileSync(file, 'utf8').replace(/^\uFEFF/, '')) as T;
}

function recognizers(): void {
  const folder = join(ACCEPTANCE, 'recognizers-text');
  if (!existsSync(folder)) {
    console.log(`\nRecognizers-Text: skipped — ${folder} is absent.`);
    return;
  }
  const byType = new Map<string, { total: number; resolved: number }>();
  for (const item of readBomJson<DateCase[]>(join(folder, 'pt_DateTimeModel.json'))) {
    const reference = item.Context?.ReferenceDateTime;
    if (reference === undefined) continue;
    const now = `${reference.slice(0, 19)}+00:00`;
    let found: ReturnType<typeof readDates> = [];
    try {
      found = readDates(item.Input, { now, language: 'pt-BR' });
    } catch {
      found = [];
    }
    for (const result of item.Results) {
      const type = result.TypeName.replace('datetimeV2.', '');
      const tally = byType.get(type) ?? { total: 0, resolved: 0 };
      tally.total++;
      if (found.some((d) => resolves(d, type, result.Resolution.values))) tally.resolved++;
      byType.set(type, tally);
    }
  }
  const rows = [...byType.entries()].sort().map(([type, t]) => [type, t.total, t.resolved, `${((t.resolved / t.total) * 100).toFixed(1)}%`]);
  const all = [...byType.values()].reduce((a, t) => ({ total: a.total + t.total, resolved: a.resolved + t.resolved }), { total: 0, resolved: 0 });
  rows.push(['all', all.total, all.resolved, `${((all.resolved / all.total) * 100).toFixed(1)}%`]);
  printTable('Recognizers-Text pt dates: expected results resolved to an expected value', ['type', 'expected', 'resolved', 'share'], rows);

  let expected = 0;
  let resolved = 0;
  for (const item of readBomJson<NumberCase[]>(join(folder, 'pt_NumberModel.json'))) {
    const ours = findPortugueseNumbers(item.Input).map((n) => Number(n.value));
    for (const result of item.Results) {
      expected++;
      const value = Number(result.Resolution.value.replace(/\./g, '').replace(',', '.'));
      if (ours.some((o) => Math.abs(o - value) <= Math.abs(value) * 1e-9)) resolved++;
    }
  }
  printTable('Recognizers-Text pt numbers: expected numbers found with their value', ['expected', 'resolved', 'share'], [[expected, resolved, `${((resolved / expected) * 100).toFixed(1)}%`]]);
}

/** Maps Recognizers-Text conventions: an unqualified weekday or date lists past and next values; we give one of them. */
function resolves(ours: ReturnType<typeof readDates>[number], type: string, values: readonly Record<string, string>[]): boolean {
  if (ours.start === null || ours.end === null) return false;
  const startDate = ours.start.slice(0, 10);
  const startTime = ours.start.slice(11, 19);
  const endDate = ours.end.slice(0, 10);
  const lastDay = new Date(Date.parse(`${endDate}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
  return values.some((v) => {
    switch (type) {
      case 'date': return v['value'] === startDate && (ours.grain === 'day');
      case 'datetime': return v['value'] === `${startDate} ${startTime}`;
      case 'time': return v['value'] === startTime;
      case 'daterange': return v['start'] === startDate && (v['end'] === endDate || v['end'] === lastDay);
      case 'datetimerange': return v['start'] === `${startDate} ${startTime}` && v['end'] === `${endDate} ${ours.end?.slice(11, 19)}`;
      case 'timerange': return v['start'] === startTime && v['end'] === ours.end?.slice(11, 19);
      default: return false;
    }
  });
}

const benchmark: Benchmark = {
  name: 'router',
  run(args) {
    const only = new Set(args);
    if (only.size === 0 || only.has('latency')) latency();
    // `why` lists the BFCL cases not run with the rules that decided them (`npm run bench -- router bfcl why`);
    // `sample` or `dev` scores one split only.
    if (only.size === 0 || only.has('bfcl') || only.has('why') || only.has('sample') || only.has('dev')) bfcl(only.has('why'), only);
    if (only.size === 0 || only.has('recognizers')) recognizers();
    return Promise.resolve();
  },
};
export default benchmark;
