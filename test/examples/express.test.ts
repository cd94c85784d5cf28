import { describe, expect, it } from 'vitest';
import { startShop } from '../../examples/express/server.js';
import { askAsBrowser } from './ask.js';
import { shopOverFetchHandler } from './shop-cases.js';

describe('examples/express: an Express 5 app with a fetch adapter for the fetch handler', () => {
  const send = shopOverFetchHandler(startShop);

  it('answers an oversized body with 413 payload_too_large', async () => {
    const response = await askAsBrowser(send, '/chat/', '', 'x'.repeat(100_000));
    expect(response.status).toBe(413);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('payload_too_large');
  });
});
