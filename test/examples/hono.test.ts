import { describe, expect, it } from 'vitest';
import { startShop } from '../../examples/hono/server.js';
import { shopOverFetchHandler } from './shop-cases.js';

describe('examples/hono: a Hono app routing /chat/* and /graphql to the fetch handler', () => {
  const send = shopOverFetchHandler(startShop);

  it('serves /graphql as the actor', async () => {
    const response = await send('/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ materialList(filter: {name: "Steel"}) { items { name } } }' }) });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ data: { materialList: { items: [{ name: 'Steel' }] } } });
  });
});
