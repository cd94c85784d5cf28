/**
 * A yes/no field said of its subject ("which recipes are seasonal?", "the seasonal recipes", "not
 * seasonal") and a field word right after a value of its own ("an artificial surface"), on a schema
 * that is not the demo.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineHost } from '../config/index.js';
import type { OpenedApp } from '../config/index.js';
import { defineManager } from '../data/index.js';
import type { TurnPlan } from '../router/index.js';
import type { AppReader } from './index.js';
import { createAppReader } from './index.js';
import { openInMemory } from './test-support/host-apps.js';

const open = { read: () => true, create: () => false, update: () => false, delete: () => false };
const Recipe = defineManager({ name: 'Recipe', fields: { name: 'string', seasonal: 'boolean', style: { type: 'enum', values: ['stout', 'lager', 'ipa'] } }, chatExposed: true, permissions: open });
const Venue = defineManager({ name: 'Venue', fields: { name: 'string', surface: { type: 'enum', values: ['grass', 'artificial'] } }, chatExposed: true, permissions: open });

let opened: OpenedApp;
let reader: AppReader;
beforeAll(async () => {
  opened = await openInMemory(
    defineHost({
      managers: [Recipe, Venue],
      seed: [
        { manager: 'Recipe', rows: [{ id: 1, name: 'Night Heron', seasonal: true, style: 'stout' }, { id: 2, name: 'Copper Kettle', seasonal: false, style: 'lager' }] },
        { manager: 'Venue', rows: [{ id: 1, name: 'Millfield', surface: 'artificial' }] },
      ],
    }),
  );
  reader = await createAppReader({ app: opened.app, hostTools: [], rulebook: { compute: true }, secret: 'predicates-secret-0123456789' });
});
afterAll(async () => opened.close());

function plan(turn: string): TurnPlan {
  return reader.router().plan(turn, { language: 'en', context: { now: '2026-12-01T09:00:00Z' } });
}
const filters = (p: TurnPlan): unknown => (p.outcome === 'run' ? (p.steps[0]?.selection.arguments as { filters?: unknown }).filters : p.outcome);

describe('predicates', () => {
  it('reads a yes/no field said of its subject as true, and after a negation as false', () => {
    expect(filters(plan('which recipes are seasonal?'))).toEqual({ seasonal: true });
    expect(filters(plan('list the seasonal recipes'))).toEqual({ seasonal: true });
    expect(filters(plan('how many recipes are seasonal?'))).toEqual({ seasonal: true });
    expect(filters(plan('recipes that are not seasonal'))).toEqual({ seasonal: false });
    // A yes/no question: whether the row named is one that is seasonal.
    const asked = plan('is Night Heron seasonal?');
    expect(filters(asked)).toEqual({ name: 'Night Heron', seasonal: true });
    expect(asked.steps[1]?.compute?.operation).toBe('exists');
  });

  it('reads a field word right after a value of its own as that value', () => {
    expect(filters(plan('which venues have an artificial surface?'))).toEqual({ surface: 'artificial' });
    expect(filters(plan('recipes of the stout style'))).toEqual({ style: 'stout' });
  });
});
