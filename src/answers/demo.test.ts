/** The renderer over real plans and results: the demo's router reads a turn, the demo's tools answer it, the answer is written. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonValue } from '../core/index.js';
import type { App } from '../data/index.js';
import { createDemoApp, createDemoHostTools, demoActors, demoRulebookYaml, demoToolSettings, demoVocabularyYaml } from '../demo/index.js';
import type { Language } from '../router/index.js';
import { resultIdentity, runCompute } from '../router/index.js';
import { createChatDispatcher, createChatTools, isConfirmationRequired } from '../tools/index.js';
import type { Dispatcher } from '../tools/index.js';
import { createAppReader } from '../reading/index.js';
import type { AppReader } from '../reading/index.js';
import { renderAnswer } from './index.js';
import { heldNumbers, NUMBER } from './test-plans.js';
import type { StepOutcome } from './index.js';

const now = new Date('2026-11-30T12:00:00.000Z');
let app: App;
let reader: AppReader;
let dispatcher: Dispatcher;

beforeAll(async () => {
  app = await createDemoApp({ now });
  const hostTools = createDemoHostTools(app);
  reader = await createAppReader({ app, hostTools, vocabulary: demoVocabularyYaml, rulebook: demoRulebookYaml.replace('compute: false', 'compute: true'), secret: 'answer-demo-test-secret-0123' });
  // As the engine does: the reader's tools the chat tools already hold (the discovery tools) are not added twice.
  const chatTools = new Set(createChatTools(app, demoToolSettings).tools.map((tool) => tool.name));
  const readTools = reader.readTools.filter((tool) => !chatTools.has(tool.name));
  dispatcher = createChatDispatcher({ app, settings: demoToolSettings, hostTools: [...hostTools, ...readTools], clock: () => now });
});

afterAll(async () => {
  await app.close();
});

/** Reads a turn with a fresh session, runs its steps as Alice (approving writes), and renders the answer. */
async function ask(turn: string, language: Language): Promise<{ answer: string; outcomes: StepOutcome[] }> {
  const plan = reader.router().plan(turn, { language, context: { now: now.toISOString() } });
  const outcomes: StepOutcome[] = [];
  const results: JsonValue[] = [];
  if (plan.outcome === 'run') {
    for (const [i, step] of plan.steps.entries()) {
      if (step.kind === 'compute' && step.compute !== null) {
        const computed = runCompute(step, results);
        outcomes[i] = { kind: 'compute', value: 'value' in computed ? computed.value : null, error: 'error' in computed ? computed.error : null, ...step.compute };
        continue;
      }
      if (step.kind !== 'tool' || step.selection.tool === null) continue;
      const args: Record<string, JsonValue> = { ...step.selection.arguments };
      for (const [parameter, from] of Object.entries(step.supplied)) args[parameter] = resultIdentity(results[from], parameter);
      let result = (await dispatcher.dispatch({ name: step.selection.tool, arguments: args }, { actor: demoActors.alice })) as JsonValue;
      if (isConfirmationRequired(result)) result = (await dispatcher.confirm(result.confirmation_id, { actor: demoActors.alice, confirmed: true })) as JsonValue;
      results[i] = result;
      outcomes[i] = { kind: 'tool', tool: step.selection.tool, arguments: args, result };
    }
  }
  return { answer: renderAnswer({ plan, steps: outcomes, language, label: (tool, lang, count) => reader.label(tool, lang, count) }), outcomes };
}

/** A string field of a step's record result ('' when there is none). */
function field(outcome: StepOutcome | undefined, key: string): string {
  const value = outcome?.kind === 'tool' && typeof outcome.result === 'object' && outcome.result !== null && !Array.isArray(outcome.result) ? (outcome.result as Record<string, JsonValue>)[key] : undefined;
  return typeof value === 'string' ? value : '';
}

/** Every number of the answer is a number some result or argument holds, as the locale writes it. */
function numbersHeld(answer: string, outcomes: readonly StepOutcome[], language: Language = 'en'): void {
  const held = new Set<string>();
  heldNumbers(JSON.parse(JSON.stringify(outcomes)) as JsonValue, language, held);
  for (const number of answer.match(NUMBER) ?? []) expect(held, answer).toContain(number);
}

describe('answers to the demo questions', () => {
  it('lists the materials in English and in Portuguese', async () => {
    const en = await ask('show me all materials', 'en');
    const pt = await ask('mostre todos os materiais', 'pt-BR');
    expect(en.answer).toMatch(/^\d+ materials:\n/);
    expect(pt.answer).toMatch(/^\d+ materiais:\n/);
    expect(en.answer).toContain('Steel');
    numbersHeld(en.answer, en.outcomes);
  });

  it('answers which parts are made of steel with the filter it read', async () => {
    const en = await ask('which parts are made of steel?', 'en');
    expect(en.answer).toMatch(/^\d+ parts? where material name is Steel:\n/);
    const pt = await ask('quais peças são de aço?', 'pt-BR');
    expect(pt.answer).toMatch(/^\d+ peças? com material name Steel:\n/);
    numbersHeld(pt.answer, pt.outcomes, 'pt-BR');
  });

  it('answers a count with what it counted', async () => {
    const { answer, outcomes } = await ask('how many open tasks does Apollo have?', 'en');
    expect(answer).toMatch(/^\d+ tasks? \(count of tasks where not done, project name is Apollo\)\.$/);
    numbersHeld(answer, outcomes);
  });

  it('leads an order with the field the turn asks about, copying the total as the result has it', async () => {
    const { answer, outcomes } = await ask('what is the total of order 4411?', 'en');
    const total = field(outcomes[0], 'total');
    expect(total).toMatch(/^\d+\.\d\d$/);
    expect(answer.split('\n')[0]).toBe(`Order 4411 — total: ${total}`);
    numbersHeld(answer, outcomes);
  });

  it('says a turn it cannot read with the guidance', async () => {
    const { answer } = await ask('zork the frobnicator', 'en');
    expect(answer).toMatch(/^I could not read that\./);
  });

  it('says what was created and added, with the ids the tools answered', async () => {
    const { answer, outcomes } = await ask('create a project called Alpha and then add a task "Kick-off" to it', 'en');
    const project = field(outcomes[0], 'id');
    expect(project).toMatch(/^\d+$/);
    expect(answer.startsWith(`Created project ${project} "Alpha".`)).toBe(true);
    expect(answer).toMatch(/\n\nAdded task \d+ "Kick-off"\./);
    expect(answer).toContain(`- project id: ${project}`);
  });
});
