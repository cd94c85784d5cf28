import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openShop } from '../../test/support/data/shop-fixture.js';
import type { ShopHandle } from '../../test/support/data/shop-fixture.js';

let shop: ShopHandle;
beforeEach(async () => {
  shop = await openShop();
});
afterEach(async () => {
  await shop.dispose();
});

describe('app.distinctValues', () => {
  it('answers the distinct non-null values of a field, sorted, in one SELECT DISTINCT', async () => {
    shop.statements.length = 0;
    expect(await shop.app.distinctValues('Material', 'name', { limit: 10 })).toEqual(['Aluminum', 'Cobalt', 'Steel']);
    expect(shop.statements).toHaveLength(1);
    expect(shop.statements[0]).toMatch(/select distinct .* limit \?/);
    expect(await shop.app.distinctValues('Material', 'code', { limit: 10 })).toEqual(['CO', 'ST']);
  });

  it('answers null when the field has more distinct values than the limit', async () => {
    expect(await shop.app.distinctValues('Material', 'name', { limit: 2 })).toBeNull();
    expect(await shop.app.distinctValues('Material', 'name', { limit: 3 })).toHaveLength(3);
  });

  it('names the fields when asked for one the manager does not have', async () => {
    await expect(shop.app.distinctValues('Material', 'colour', { limit: 5 })).rejects.toThrow(/Unknown field 'colour' on Material\. Fields: id, name, density, code/);
    await expect(shop.app.distinctValues('Mineral', 'name', { limit: 5 })).rejects.toMatchObject({ code: 'unknown_manager' });
  });

  it('stops before reading when its signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort(new Error('gone'));
    await expect(shop.app.distinctValues('Material', 'name', { limit: 5, signal: controller.signal })).rejects.toMatchObject({ code: 'timeout' });
  });
});
