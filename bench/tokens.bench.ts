/**
 * `npm run bench -- tokens`: how far the model-free token estimate (what a host without the optional
 * `gpt-tokenizer` peer gets) is from the exact o200k count, raw and after the calibration that
 * follows a provider's reported usage. Texts: the datasets' user turns (English and Portuguese),
 * the demo's rows as a tool returns them, and its tool definitions as a model receives them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { parse } from 'yaml';
import { createDemoApp, demoSeed } from '../src/demo/index.js';
import { TokenEstimator } from '../src/engine/context/index.js';
import { heuristicTokens } from '../src/engine/context/tokens.js';
import { createChatTools, renderTools } from '../src/tools/index.js';
import type { Benchmark } from './harness.js';
import { machineLine, printTable, summarize } from './harness.js';

const datasets = join(import.meta.dirname, '..', 'evals', 'datasets');

/** Every `text` of every turn in the packaged datasets, by language. */
function turnTexts(): Map<string, string[]> {
  const byLanguage = new Map<string, string[]>();
  for (const file of readdirSync(datasets).filter((name) => name.endsWith('.yaml'))) {
    const dataset = parse(readFileSync(join(datasets, file), 'utf8')) as { cases?: { language?: string; turns?: { text?: string }[] }[] };
    for (const entry of dataset.cases ?? []) {
      const language = entry.language ?? 'en';
      const texts = byLanguage.get(language) ?? [];
      for (const turn of entry.turns ?? []) if (typeof turn.text === 'string') texts.push(turn.text);
      byLanguage.set(language, texts);
    }
  }
  return byLanguage;
}

/** The demo's rows as tool results carry them: one JSON array of up to 20 rows per manager. */
function rowTexts(): string[] {
  return demoSeed(new Date('2026-11-30T10:00:00Z')).map((batch) => JSON.stringify(batch.rows.slice(0, 20)));
}

async function toolTexts(): Promise<string[]> {
  const app = await createDemoApp({ path: ':memory:' });
  try {
    return (['direct', 'discovery'] as const).map((toolStrategy) => JSON.stringify(renderTools(createChatTools(app, { toolStrategy }).tools)));
  } finally {
    await app.close();
  }
}

/** Error of an estimate against the exact count, in percent (positive: the estimate is generous). */
const errorPercent = (estimate: number, exact: number): number => (exact === 0 ? 0 : ((estimate - exact) / exact) * 100);

const benchmark: Benchmark = {
  name: 'tokens',
  async run() {
    const groups = new Map<string, string[]>();
    for (const [language, texts] of turnTexts()) groups.set(`user turns (${language})`, texts);
    groups.set('tool results (demo rows, JSON)', rowTexts());
    groups.set('tool definitions (demo, JSON)', await toolTexts());

    const total = (values: readonly number[]): number => values.reduce((sum, value) => sum + value, 0);
    const rows: (string | number)[][] = [];
    for (const [group, texts] of groups) {
      const exact = texts.map((text) => countTokens(text));
      const raw = texts.map((text) => heuristicTokens(text));
      const errors = raw.map((estimate, index) => errorPercent(estimate, exact[index]!));
      rows.push([group, String(texts.length), total(exact), summarize(errors.map(Math.abs)).median, errorPercent(total(raw), total(exact)), Math.min(...errors)]);
    }

    // Whole requests, as the engine measures them and a provider reports them: the tool
    // definitions, a few user turns and one tool result. The calibration factor learnt from the
    // requests before (TokenEstimator.observe) corrects each next estimate.
    const turns = [...turnTexts().values()].flat();
    const results = groups.get('tool results (demo rows, JSON)')!;
    const definitions = groups.get('tool definitions (demo, JSON)')!;
    const estimator = new TokenEstimator('a-model-without-a-tokenizer');
    const rawErrors: number[] = [];
    const calibratedErrors: number[] = [];
    for (let index = 0; index < 200; index++) {
      const request = [definitions[index % definitions.length]!, ...[0, 1, 2].map((offset) => turns[(index * 7 + offset * 31) % turns.length]!), results[index % results.length]!].join('\n');
      const exact = countTokens(request);
      const raw = estimator.text(request);
      rawErrors.push(errorPercent(raw, exact));
      if (index > 0) calibratedErrors.push(errorPercent(estimator.calibrated(raw), exact));
      estimator.observe(raw, exact);
    }
    console.log(machineLine());
    printTable('Token estimate without gpt-tokenizer vs the exact o200k count, by kind of text', ['texts', 'n', 'exact tokens', 'median |error| %', 'total error %', 'worst under-count %'], rows);
    const line = (name: string, errors: readonly number[]): (string | number)[] => [name, String(errors.length), summarize(errors.map(Math.abs)).median, summarize(errors.map(Math.abs)).p99, Math.min(...errors)];
    printTable('Whole requests (tools + 3 turns + a tool result): raw and calibrated by the reports before', ['estimate', 'requests', 'median |error| %', 'p99 |error| %', 'worst under-count %'], [line('raw', rawErrors), line('calibrated', calibratedErrors)]);
  },
};

export default benchmark;
