/** Answers in the host's words, over a ported schema whose managers are named as Django names them (`MaterialManager`). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineHost, openHostApp } from '../config/index.js';
import type { OpenedApp } from '../config/index.js';
import type { JsonValue } from '../core/index.js';
import { userActor } from '../core/index.js';
import { defineManager } from '../data/index.js';
import { createAppReader } from '../reading/index.js';
import type { AppReader } from '../reading/index.js';
import { createChatDispatcher, createChatTools } from '../tools/index.js';
import type { Dispatcher } from '../tools/index.js';
import { renderAnswer } from './index.js';
import type { StepOutcome } from './index.js';
import { correctionWorthSaying } from './read-as.js';

const vocabulary = 'languages:\n  en:\n    data:\n      managers:\n        MaterialManager: [metal, material, materials]\n        PartRecord: [part, parts]\n';
let opened: OpenedApp;
let reader: AppReader;
let dispatcher: Dispatcher;

beforeAll(async () => {
  const MaterialManager = defineManager({ name: 'MaterialManager', fields: { name: { type: 'string' }, density: { type: 'decimal', nullable: true } }, chatExposed: true, permissions: { read: () => true } });
  const PartRecord = defineManager({ name: 'PartRecord', fields: { name: { type: 'string' } }, relations: { material: { kind: 'one', target: 'MaterialManager' } }, chatExposed: true, permissions: { read: () => true } });
  const host = defineHost({
    managers: [MaterialManager, PartRecord],
    seed: [
      { manager: 'MaterialManager', rows: [{ id: 1, name: 'Steel', density: '7.8' }, { id: 2, name: 'Copper', density: '8.96' }] },
      { manager: 'PartRecord', rows: [{ id: 1, name: 'Bolt', material: 1 }] },
    ],
  });
  opened = await openHostApp({ host, database: ':memory:' });
  reader = await createAppReader({ app: opened.app, hostTools: opened.tools, vocabulary, secret: 'host-words-test-secret-0123456789' });
  const chatTools = new Set(createChatTools(opened.app).tools.map((tool) => tool.name));
  dispatcher = createChatDispatcher({ app: opened.app, hostTools: [...opened.tools, ...reader.readTools.filter((tool) => !chatTools.has(tool.name))] });
});

afterAll(async () => {
  await opened.app.close();
});

async function ask(turn: string): Promise<string> {
  const plan = reader.router().plan(turn, { language: 'en' });
  expect(plan.outcome, turn).toBe('run');
  const outcomes: StepOutcome[] = [];
  for (const [i, step] of plan.steps.entries()) {
    if (step.kind !== 'tool' || step.selection.tool === null) continue;
    const result = (await dispatcher.dispatch({ name: step.selection.tool, arguments: step.selection.arguments }, { actor: userActor('tester', []) })) as JsonValue;
    outcomes[i] = { kind: 'tool', tool: step.selection.tool, arguments: step.selection.arguments, result };
  }
  return renderAnswer({ plan, steps: outcomes, language: 'en', labels: reader.labels });
}

describe("answers in the host's words", () => {
  it('names a manager by the words the vocabulary gives it, in both numbers, never by its identifier', async () => {
    const listed = await ask('show me all materials');
    expect(listed).toMatch(/^2 materials/);
    const one = await ask('materials named Steel');
    expect(one).toMatch(/^1 material where name is Steel/);
    const seen = await ask('what can you see');
    expect(seen).toContain('materials');
    for (const answer of [listed, one, seen]) expect(answer).not.toMatch(/manager|record/i);
  });

  it('says a typo it read as another word, never another form of a word the person wrote rightly', async () => {
    const named = await ask('materials named Steel');
    expect(named).not.toContain('(Read');
    const typo = await ask('materials named Stel');
    expect(typo).toContain('(Read "Stel" as "Steel".)');
    expect(typo).not.toContain('"named"');
  });

  it('tells forms of one word from a typo, in both languages', () => {
    expect(correctionWorthSaying('named', 'names', 'en')).toBe(false);
    expect(correctionWorthSaying('categories', 'category', 'en')).toBe(false);
    expect(correctionWorthSaying('boxes', 'box', 'en')).toBe(false);
    expect(correctionWorthSaying('Stel', 'Steel', 'en')).toBe(true);
    expect(correctionWorthSaying('steal', 'Steel', 'en')).toBe(true);
    expect(correctionWorthSaying('peças', 'peca', 'pt-BR')).toBe(false);
    expect(correctionWorthSaying('pecs', 'peca', 'pt-BR')).toBe(true);
  });
});
