import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { storeErrorCodes } from '../../store/index.js';
import { engineErrorCodes } from '../index.js';

/** The `## Error codes` table of a docs page, as code → meaning. */
function documented(page: string): Map<string, string> {
  const text = readFileSync(join(import.meta.dirname, '..', '..', '..', 'docs', page), 'utf8');
  const section = text.slice(text.indexOf('## Error codes'));
  const rows = new Map<string, string>();
  for (const match of section.matchAll(/^\| `([a-z_]+)` \| (.+) \|$/gm)) rows.set(match[1]!, match[2]!);
  return rows;
}

describe('error catalogues and their docs', () => {
  it.each([
    ['docs/engine.md', engineErrorCodes, 'engine.md'],
    ['docs/store.md', storeErrorCodes, 'store.md'],
  ] as const)('%s lists exactly the catalogue, with the same meanings', (_name, catalogue, page) => {
    const rows = documented(page);
    expect([...rows.keys()].sort()).toEqual(Object.keys(catalogue).sort());
    for (const [code, meaning] of Object.entries(catalogue)) expect(rows.get(code), code).toBe(meaning);
  });
});
