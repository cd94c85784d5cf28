/**
 * The relation-verb, value-as-noun and attribute families on fresh schemas, through the public
 * surfaces: the plan, the words it matched (each derived word naming the schema name it came from),
 * and the answer a person reads once the read ran.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenedApp } from '../config/index.js';
import { defineHost } from '../config/index.js';
import type { JsonValue } from '../core/index.js';
import { userActor } from '../core/index.js';
import { defineManager } from '../data/index.js';
import { renderAnswer } from '../answers/index.js';
import type { StepOutcome } from '../answers/index.js';
import type { Language, TurnPlan } from '../router/index.js';
import { runCompute } from '../router/index.js';
import { createDispatcher } from '../tools/index.js';
import type { AppReader } from './index.js';
import { createAppReader, createDataReader } from './index.js';
import { fleetHost, hostelHost, schoolHost } from './test-support/fresh-hosts.js';
import { openInMemory } from './test-support/host-apps.js';

const NOW = { now: '2026-12-01T09:00:00Z' };
const open = { read: () => true, create: () => false, update: () => false, delete: () => false };

interface App {
  readonly opened: OpenedApp;
  readonly reader: AppReader;
}

async function openApp(host: OpenedApp['host']): Promise<App> {
  const opened = await openInMemory(host);
  return { opened, reader: await createAppReader({ app: opened.app, hostTools: opened.tools, rulebook: { compute: true }, secret: 'relation-families-secret-0123456789' }) };
}

function plan(app: App, turn: string, language: Language = 'en'): TurnPlan {
  return app.reader.router().plan(turn, { language, context: NOW });
}

/** Runs the plan's steps and renders the answer a person would read. */
async function answer(app: App, turn: string, language: Language = 'en'): Promise<string> {
  const p = plan(app, turn, language);
  expect(p.outcome, turn).toBe('run');
  const dispatcher = createDispatcher({ tools: [...app.reader.readTools], app: app.opened.app });
  const results: JsonValue[] = [];
  const outcomes: StepOutcome[] = [];
  for (const [i, step] of p.steps.entries()) {
    if (step.kind === 'compute' && step.compute !== null) {
      const computed = runCompute(step, results);
      outcomes[i] = { kind: 'compute', value: 'value' in computed ? computed.value : null, error: 'error' in computed ? computed.error : null, ...step.compute };
    } else if (step.kind === 'tool' && step.selection.tool !== null) {
      const result = (await dispatcher.dispatch({ name: step.selection.tool, arguments: step.selection.arguments }, { actor: userActor('tester', []) })) as JsonValue;
      results[i] = result;
      outcomes[i] = { kind: 'tool', tool: step.selection.tool, arguments: step.selection.arguments, result };
    }
  }
  return renderAnswer({ plan: p, steps: outcomes, language, label: (tool, lang, count) => app.reader.label(tool, lang, count) });
}

let school: App;
let fleet: App;
beforeAll(async () => {
  school = await openApp(schoolHost());
  fleet = await openApp(fleetHost());
});
afterAll(async () => {
  await school.opened.close();
  await fleet.opened.close();
});

describe('relation verbs, place words and demonyms', () => {
  it('reads a verb only along its relation: another path to the same value is no reading', () => {
    // Student reaches Course.title through Enrollment, not through Course.teacher: "teach" is not walked.
    expect(plan(school, 'which students teach Algebra II?').outcome).toBe('unread');
    expect(plan(school, 'which students took Algebra II?').steps[0]?.selection.arguments).toMatchObject({ filters: { enrollments__course__title: 'Algebra II' } });
    expect(plan(school, 'quais alunos cursam Robotics?', 'pt-BR').steps[0]?.selection.arguments).toMatchObject({ filters: { enrollments__course__title: 'Robotics' } });
    expect(plan(fleet, 'quem dirigiu o caminhão 8?', 'pt-BR').steps[0]?.selection.arguments).toMatchObject({ filters: { trips__truck__id: 8 } });
  });

  it('reads a place word only with a place field, and a demonym only of a country the column holds', () => {
    expect(plan(school, 'students who live in Algebra II').outcome).toBe('unread');
    expect(plan(school, 'teachers based in Kenya').steps[0]?.selection.arguments).toMatchObject({ filters: { country: 'Kenya' } });
    // No teacher is French (a student is): the demonym is not read through three relations, nor guessed.
    expect(plan(school, 'French teachers').outcome).toBe('unread');
    expect(plan(school, 'French students').steps[0]?.selection.arguments).toMatchObject({ filters: { country: 'France' } });
    expect(plan(school, 'alunas francesas', 'pt-BR').steps[0]?.selection.arguments).toMatchObject({ filters: { country: 'France' } });
  });

  it('says which schema name each derived word came from', () => {
    const router = school.reader.router();
    const reads = createDataReader().compile({ language: 'en', words: router.vocabulary.words.en, catalogue: router.catalogue });
    const reading = reads?.read({ typed: 'courses by Kenyan teachers', folded: 'courses by kenyan teachers', language: 'en', dates: [], previous: [], now: null });
    expect(reading?.words?.map((w) => [w.text, w.matched])).toEqual([
      ['courses', ['manager Course']],
      ['by', ['grammar dateBound', 'grammar link']],
      ['Kenyan', ['value Student.country = Kenya (demonym of Student.country = Kenya)', 'value Teacher.country = Kenya (demonym of Teacher.country = Kenya)']],
      ['teachers', ['manager Teacher']],
    ]);
    const verb = reads?.read({ typed: 'who teaches Algebra II?', folded: 'who teaches algebra ii?', language: 'en', dates: [], previous: [], now: null });
    expect(verb?.words?.find((w) => w.text === 'teaches')?.matched).toEqual(['verb joining Course and Teacher through Course (relation Course.teacher (agent noun teacher))']);
  });
});

describe('values as nouns', () => {
  let hostel: App;
  let shared: App;
  beforeAll(async () => {
    hostel = await openApp(hostelHost());
    // "suite" is a kind of room and a category of package: two readings.
    const Room = defineManager({ name: 'Room', fields: { name: { type: 'string' }, kind: { type: 'enum', values: ['suite', 'dorm'] } }, chatExposed: true, permissions: open });
    const Package = defineManager({ name: 'Package', fields: { title: { type: 'string' }, category: { type: 'string' } }, chatExposed: true, permissions: open });
    shared = await openApp(
      defineHost({
        managers: [Room, Package],
        seed: [
          { manager: 'Room', rows: [{ id: 1, name: 'Garden', kind: 'suite' }, { id: 2, name: 'Blue', kind: 'dorm' }] },
          { manager: 'Package', rows: [{ id: 1, title: 'Honeymoon', category: 'suite' }, { id: 2, title: 'Backpacker', category: 'basic' }] },
        ],
      }),
    );
  });
  afterAll(async () => {
    await hostel.opened.close();
    await shared.opened.close();
  });

  it('reads a class value as the noun, in both languages, and answers with its rows', async () => {
    expect(plan(hostel, 'quantas suítes?', 'pt-BR').steps[0]?.selection.arguments).toMatchObject({ filters: { kind: 'suite' } });
    expect(plan(hostel, 'quantos dorms?', 'pt-BR').steps[1]?.compute).toEqual({ operation: 'count', field: null });
    expect(await answer(hostel, 'list the dorms')).toContain('Blue');
  });

  it('reads a value two managers hold from both for a list, and no other form from either', async () => {
    const both = plan(shared, 'list the suites');
    expect(both.steps.map((s) => [s.selection.tool, s.selection.arguments['filters']])).toEqual([
      ['query_package', { category: 'suite' }],
      ['query_room', { kind: 'suite' }],
    ]);
    const text = await answer(shared, 'list the suites');
    expect(text).toContain('Honeymoon');
    expect(text).toContain('Garden');
    const count = plan(shared, 'how many suites are there?');
    expect(count.outcome).toBe('unread');
    expect(count.steps[0]?.decidedBy).toBe('U13 two readings Package, Room');
    // Named, the manager decides.
    expect(plan(shared, 'how many suite rooms are there?').steps[0]?.selection.arguments).toMatchObject({ filters: { kind: 'suite' } });
  });
});

describe('attribute questions and yes/no', () => {
  it('names the row by its display field, never by its number', async () => {
    expect(await answer(school, 'which country is Daniel Lee from?')).toMatch(/Daniel Lee/);
    expect(await answer(school, 'which country is Daniel Lee from?')).not.toMatch(/of 2\b/);
    expect(await answer(fleet, 'when was truck 7 bought?')).toMatch(/AB-12-CD/);
  });

  it('says which rows made a yes, and a plain no', async () => {
    const yes = await answer(school, 'do you have any courses taught by Daniel Lee?');
    expect(yes).toMatch(/^Yes/);
    expect(yes).toContain('Robotics');
    expect(await answer(fleet, 'is there a pickup bought after 2020?')).toMatch(/^No/);
    expect(await answer(school, 'tem alguma aula no sábado?', 'pt-BR')).toMatch(/^Sim/);
  });
});
