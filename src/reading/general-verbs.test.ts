/**
 * The general verbs of `general-verbs.ts` on a schema that is not the demo (a bakery's staff, its
 * shops, its products and their ingredients, time-off requests): each reads along the one relation of
 * its kind, in English and Portuguese, or leaves the turn unread.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineHost } from '../config/index.js';
import type { OpenedApp } from '../config/index.js';
import { defineManager } from '../data/index.js';
import type { DataExplanation, Language } from '../router/index.js';
import type { AppReader } from './index.js';
import { createAppReader } from './index.js';
import { firstRead } from './test-support/first-read.js';
import { openInMemory } from './test-support/host-apps.js';

const open = { read: () => true, create: () => false, update: () => false, delete: () => false };
const Shop = defineManager({ name: 'Shop', fields: { name: 'string', city: 'string' }, chatExposed: true, permissions: open });
const Employee = defineManager({ name: 'Employee', fields: { fullName: 'string', nationality: 'string' }, relations: { shop: { kind: 'one', target: 'Shop' } }, chatExposed: true, permissions: open });
const Ingredient = defineManager({ name: 'Ingredient', fields: { name: 'string' }, chatExposed: true, permissions: open });
const Product = defineManager({ name: 'Product', fields: { name: 'string' }, relations: { ingredients: { kind: 'manyToMany', target: 'Ingredient' } }, chatExposed: true, permissions: open });
const TimeOffRequest = defineManager({ name: 'TimeOffRequest', fields: { startsOn: 'date' }, relations: { employee: { kind: 'one', target: 'Employee' } }, chatExposed: true, permissions: open });

let opened: OpenedApp;
let reader: AppReader;
beforeAll(async () => {
  opened = await openInMemory(
    defineHost({
      managers: [Shop, Employee, Ingredient, Product, TimeOffRequest],
      seed: [
        { manager: 'Shop', rows: [{ id: 1, name: 'Harbour Street', city: 'Leith' }] },
        { manager: 'Employee', rows: [{ id: 1, fullName: 'Inês Prado', nationality: 'Portugal', shop: 1 }] },
        { manager: 'Ingredient', rows: [{ id: 1, name: 'Rye flour' }] },
        { manager: 'Product', rows: [{ id: 1, name: 'Black Loaf', ingredients: [1] }] },
        { manager: 'TimeOffRequest', rows: [{ id: 1, startsOn: '2026-12-20', employee: 1 }] },
      ],
    }),
  );
  reader = await createAppReader({ app: opened.app, hostTools: [], secret: 'general-verbs-secret-0123456789' });
});
afterAll(async () => opened.close());

const read = (turn: string, language: Language = 'en'): ReturnType<typeof firstRead> => firstRead(reader, turn, language);

describe('general verbs', () => {
  it("reads where a person works along the person's relation", () => {
    expect(read('which shop does Inês Prado work in?')).toEqual({ tool: 'query_shop', filters: { employees__fullName: 'Inês Prado' } });
    expect(read('who works at Harbour Street?')).toEqual({ tool: 'query_employee', filters: { shop__name: 'Harbour Street' } });
    expect(read('quem trabalha na Harbour Street?', 'pt-BR')).toEqual({ tool: 'query_employee', filters: { shop__name: 'Harbour Street' } });
  });
  it('reads what goes into a thing along its relation to ingredients', () => {
    expect(read('what goes into Black Loaf?')).toEqual({ tool: 'query_ingredient', filters: { products__name: 'Black Loaf' } });
    expect(read('which products is Rye flour used in?')).toEqual({ tool: 'query_product', filters: { ingredients__name: 'Rye flour' } });
  });
  it('reads who asked for a request along its relation to a person', () => {
    expect(read('which time off requests did Inês Prado ask for?')).toEqual({ tool: 'query_time_off_request', filters: { employee__fullName: 'Inês Prado' } });
  });
  it('leaves a verb unread where its relation is not the one the turn walks', () => {
    expect(read('which ingredients does Inês Prado work on?')).toBeNull();
  });
  it('says in `plumb route --explain` which relation a general verb came from', () => {
    const explanations: DataExplanation[] = [];
    reader.router().plan('which shop does Inês Prado work in?', { language: 'en', context: { now: '2026-12-01T09:00:00Z' }, explain: (e) => explanations.push(e) });
    const verb = explanations[0]?.words.find((w) => w.text === 'work in');
    expect(verb?.matched).toBe('verb joining Employee and Shop through Employee (relation Employee.shop (general verb: workplace))');
  });
  it('reads where one comes from on a field of origin, and where one lives only on a place field', () => {
    expect(read('which employees come from Portugal?')).toEqual({ tool: 'query_employee', filters: { nationality: 'Portugal' } });
    expect(read('quais funcionários vêm de Portugal?', 'pt-BR')).toEqual({ tool: 'query_employee', filters: { nationality: 'Portugal' } });
    expect(read('which employees live in Portugal?')).toBeNull();
  });
});
