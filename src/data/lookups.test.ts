import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filterKeys, resolveLookup } from './index.js';
import { lookupCases } from '../../test/support/data/lookup-cases.js';
import { admin, openShop } from '../../test/support/data/shop-fixture.js';
import type { ShopHandle } from '../../test/support/data/shop-fixture.js';

let shop: ShopHandle;
beforeAll(async () => {
  shop = await openShop();
});
afterAll(async () => {
  await shop.dispose();
});

const names = async (manager: string, filter: Record<string, unknown>): Promise<string[]> => {
  const page = await shop.app.list(admin, manager, { filter });
  return page.items.map((row) => String(row.name ?? row.id));
};

describe('lookups', () => {
  it.each(lookupCases)('%s', async (_title, manager, filter, expected) => {
    expect(await names(manager, filter)).toEqual(expected);
  });

  it('excludes rows matching every exclude key, keeping rows where the condition is null', async () => {
    const page = await shop.app.list(admin, 'Material', { exclude: { code: 'ST' } });
    expect(page.items.map((row) => row.name)).toEqual(['Aluminum', 'Cobalt']);
    const both = await shop.app.list(admin, 'Part', { filter: { kind: 'motion' }, exclude: { material__name: 'Cobalt' } });
    expect(both.items.map((row) => row.name)).toEqual(['Bearing']);
  });

  it('lists the same keys that resolve', () => {
    const part = shop.app.manager('Part')!;
    const keys = filterKeys(part);
    expect(keys).toEqual(expect.arrayContaining(['name', 'name__icontains', 'material__name__icontains', 'projects__status', 'orderLines__order__customer__city']));
    expect(keys).not.toContain('specs');
    expect(keys).not.toContain('material__parts__name');
    expect(keys).not.toContain('projects__parts__name');
    for (const key of keys) expect(resolveLookup(part, key).key).toBe(key);
  });

  it('refuses traversals deeper than three relations', () => {
    const line = shop.app.manager('OrderLine')!;
    expect(() => resolveLookup(line, 'part__projects__parts__material__name')).toThrow(expect.objectContaining({ code: 'unknown_filter_key' }));
  });
});
