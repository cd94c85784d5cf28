/** A manager's catalogue aliases are router words for it in both languages, beside the vocabulary's. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineHost } from '../config/index.js';
import type { OpenedApp } from '../config/index.js';
import { defineManager } from '../data/index.js';
import type { Language } from '../router/index.js';
import type { AppReader } from './index.js';
import { createAppReader } from './index.js';
import { openInMemory } from './test-support/host-apps.js';

const open = { read: () => true };
const Widget = defineManager({ name: 'Widget', fields: { name: 'string' }, chatExposed: true, permissions: open, catalog: { aliases: ['gizmo'] } });
const Supplier = defineManager({ name: 'Supplier', fields: { name: 'string' }, chatExposed: true, permissions: open });
const Vessel = defineManager({ name: 'Vessel', fields: { name: 'string' }, chatExposed: true, permissions: open, catalog: { aliases: ['ferry'] } });

let opened: OpenedApp;
let reader: AppReader;
beforeAll(async () => {
  opened = await openInMemory(defineHost({ managers: [Widget, Supplier, Vessel], catalog: { Supplier: { aliases: ['provedor', 'vendor'] } }, seed: [{ manager: 'Widget', rows: [{ name: 'Sprocket' }] }] }));
  reader = await createAppReader({ app: opened.app, hostTools: [], vocabulary: { languages: { en: { data: { managers: { Widget: ['doodad', 'doodads'] } } } } }, secret: 'catalogue-aliases-secret-0123456789' });
});
afterAll(async () => opened.close());

const tool = (turn: string, language: Language): string | null => {
  const plan = reader.router().plan(turn, { language });
  return plan.outcome === 'run' ? (plan.steps[0]?.selection.tool ?? null) : null;
};

describe('catalogue aliases as router words', () => {
  it('reads an alias from the manager and one from the host, in the plural, in English and Portuguese', () => {
    expect(tool('list the gizmos', 'en')).toBe('query_widget');
    expect(tool('list the vendors', 'en')).toBe('query_supplier');
    expect(tool('liste os provedores', 'pt-BR')).toBe('query_supplier');
  });
  it('says an alias Portuguese cannot pluralize in its English plural, as a loan word is', () => {
    expect(tool('liste os ferries', 'pt-BR')).toBe('query_vessel');
  });
  it("keeps the vocabulary's data words for a manager beside its aliases", () => {
    expect(tool('list the doodads', 'en')).toBe('query_widget');
  });
});
