import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { evalsErrorCodes } from './index.js';

describe('the evals error catalogue', () => {
  it('is listed exactly, with the same meanings, under docs/evals.md "## Error codes"', () => {
    const text = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'evals.md'), 'utf8');
    const section = text.slice(text.indexOf('## Error codes'));
    const rows = new Map([...section.matchAll(/^\| `([a-z_]+)` \| (.+) \|$/gm)].map((match) => [match[1]!, match[2]!] as const));
    expect([...rows.keys()].sort()).toEqual(Object.keys(evalsErrorCodes).sort());
    for (const [code, meaning] of Object.entries(evalsErrorCodes)) expect(rows.get(code), code).toBe(meaning);
  });
});
