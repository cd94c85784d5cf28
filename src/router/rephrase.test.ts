/**
 * The rephrase sentence says what this host can read or do: a tool's example, else what its data
 * reader offers, else that there is nothing here — never an empty example (`for example: "".`).
 */
import { describe, expect, it } from 'vitest';
import type { CatalogueEntry, DataReader, TurnPlan } from './index.js';
import { createRouter } from './index.js';

const SECRET = 'rephrase-test-secret-0123456789';

function guidance(catalogue: readonly CatalogueEntry[], dataReader?: DataReader): string | null {
  const router = createRouter({ catalogue, secret: SECRET, ...(dataReader === undefined ? {} : { dataReader }) });
  const plan: TurnPlan = router.plan('zork the frobnicator');
  expect(plan.outcome).toBe('unread');
  return plan.guidance?.render ?? null;
}

const lookUp: CatalogueEntry = {
  name: 'get_order',
  description: 'Look up one order.',
  parameters: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'], additionalProperties: false },
  effect: 'read',
};

/** A reader that plans nothing but says what can be asked. */
const offering: DataReader = { compile: () => ({ read: () => null, offer: { topics: ['books', 'loans'], example: 'show me all books' } }) };

describe('the rephrase sentence', () => {
  it("gives a host tool's call as the example", () => {
    expect(guidance([lookUp])).toBe('I could not read that. Say what to do and to what, for example: "get order order id …".');
  });

  it('offers what the data reader reads where the host has no tools of its own', () => {
    expect(guidance([], offering)).toBe('I could not read that. I can answer questions about books and loans; ask, for example: "show me all books".');
  });

  it('says there is nothing to ask where there is neither, with no empty example', () => {
    const text = guidance([]);
    expect(text).toBe('I could not read that, and this assistant has nothing it can read or do here.');
    expect(text).not.toContain('""');
  });
});
