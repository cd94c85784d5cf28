import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { storeErrorCodes } from './index.js';

describe('store error codes', () => {
  it('are each documented in docs/store.md with their meaning, and nothing else is', () => {
    const docs = readFileSync(new URL('../../docs/store.md', import.meta.url), 'utf8');
    const section = docs.slice(docs.indexOf('## Error codes'));
    const rows = [...section.matchAll(/^\| `([a-z_]+)` \| (.+) \|$/gm)].map((match) => [match[1], match[2]]);
    expect(Object.fromEntries(rows)).toEqual(storeErrorCodes);
  });
});
