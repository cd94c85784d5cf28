import { describe, expect, it } from 'vitest';
import { isPlumbError } from '../core/index.js';
import { defineApp, defineManager, sqlite, withCatalog } from './index.js';
import type { CatalogSource, ManagerSpec } from './index.js';

const material = defineManager({ name: 'Material', fields: { name: 'string' }, chatExposed: true });
const part = defineManager({ name: 'Part', description: 'A designed component.', fields: { name: 'string' }, chatExposed: true, catalog: { aliases: ['piece'], domain: 'parts' } });
const secret = defineManager({ name: 'Secret', fields: { value: 'string' } });
const managers = [material, part, secret];

function catalogProblems(source: unknown, given: readonly ManagerSpec[] = managers): string[] {
  try {
    withCatalog(given, source as CatalogSource);
  } catch (error) {
    if (isPlumbError(error) && error.code === 'invalid_catalog') return error.details?.problems as string[];
    throw error;
  }
  throw new Error('expected invalid_catalog');
}

describe('the host catalogue', () => {
  it('lays a mapping over the managers: lists joined, domain and useWhen from the host; defineApp keeps it', async () => {
    const source = { Part: { aliases: ['component', 'piece'], domain: 'manufacturing', useWhen: 'the question concerns designed or purchased components', distinguishFrom: ['Material'] } };
    const app = defineApp({ managers, catalog: source, database: sqlite({ path: ':memory:' }) });
    expect(app.managers.find((manager) => manager.name === 'Part')?.catalog).toEqual({
      aliases: ['piece', 'component'],
      domain: 'manufacturing',
      useWhen: 'the question concerns designed or purchased components',
      distinguishFrom: ['Material'],
    });
    expect(app.managers.find((manager) => manager.name === 'Material')?.catalog).toBeUndefined();
    await app.close();
  });

  it('calls a function once per chat-exposed manager, never for a hidden one', () => {
    const asked: string[] = [];
    const out = withCatalog(managers, (manager) => {
      asked.push(manager.name);
      return manager.name === 'Material' ? { aliases: [`raw ${manager.name.toLowerCase()}`] } : undefined;
    });
    expect(asked).toEqual(['Material', 'Part']);
    expect(out.find((manager) => manager.name === 'Material')?.catalog).toEqual({ aliases: ['raw material'] });
    expect(out.find((manager) => manager.name === 'Part')).toBe(part);
  });

  it('refuses a mapping entry for an unknown or hidden manager and a badly typed entry, naming what to fix', () => {
    expect(catalogProblems({ Widget: { aliases: ['gizmo'] }, Secret: { domain: 'x' }, Part: { aliases: 'component', usewhen: 'x' } })).toEqual([
      "catalog names 'Widget', which is not a manager. Managers: Material, Part, Secret.",
      'catalog names Secret, which is not chat-exposed, so its entry would never be shown: expose it (chatExposed: true) or drop the entry.',
      "Part: unknown catalog key 'usewhen'. Keys: aliases, domain, useWhen, distinguishFrom.",
      "Part: catalog.aliases is a list of words a person says for the manager, such as ['component', 'item'].",
    ]);
    expect(catalogProblems(['Part'])).toEqual(['catalog is an object keyed by manager name ({ Part: { aliases: [...] } }) or a function (manager) => entry | undefined.']);
  });

  it('refuses what a function returns when it is badly typed, and a function that throws', () => {
    expect(catalogProblems(() => ({ domain: 7 }))).toEqual([
      'Material: catalog.domain is a non-empty string. (returned by the catalog function)',
      'Part: catalog.domain is a non-empty string. (returned by the catalog function)',
    ]);
    expect(catalogProblems((manager: ManagerSpec) => {
      if (manager.name === 'Part') throw new Error('no metadata service');
      return undefined;
    })).toEqual(['The catalog function threw for Part: no metadata service']);
  });

  it('leaves distinguishFrom to defineApp, which refuses one that names no manager', () => {
    expect(() => defineApp({ managers, catalog: { Part: { distinguishFrom: ['Component'] } }, database: sqlite({ path: ':memory:' }) })).toThrow(/Part: catalog\.distinguishFrom names 'Component', which is not a manager/);
  });

  it('refuses a word that would name two chat-exposed managers: one alias on both, or an alias that is the other one\'s name', () => {
    const define = (catalog: Record<string, { aliases: string[] }>) => () => defineApp({ managers, catalog, database: sqlite({ path: ':memory:' }) });
    expect(define({ Material: { aliases: ['Piece'] } })).toThrow(/Material: catalog alias 'piece' also names Part \(an alias\)|Part: catalog alias 'piece' also names Material/);
    expect(define({ Material: { aliases: ['parts'] } })).toThrow(/Material: catalog alias 'parts' also names Part \(its name\), so the reader could not tell which one a question means/);
    // A manager nobody can chat about lends no word to the reader: its name is free to be an alias.
    expect(define({ Material: { aliases: ['secret'] } })).not.toThrow();
  });
});
