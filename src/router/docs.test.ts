import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { routerErrorCodes } from './index.js';

const page = readFileSync(join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'docs', 'router.md'), 'utf8');

describe('docs/router.md', () => {
  it('lists every error code of the catalogue with its meaning, and no other', () => {
    const section = page.split('## Error codes')[1]?.split('\n## ')[0] ?? '';
    const rows = [...section.matchAll(/^\| `([a-z_]+)` \| (.+) \|$/gm)].map((m) => [m[1], m[2]]);
    expect(Object.fromEntries(rows)).toEqual(routerErrorCodes);
  });

  it('documents every rule id a plan can name', () => {
    for (const id of ['T1', 'T2', 'T4', 'T5', 'D1', 'D2', 'D4', 'M1', 'Q1', 'Q2', 'Q3', 'A5', 'C1', 'S2', 'U1', 'U2', 'U3', 'U4', 'U5', 'U6', 'U9', 'U10', 'compute off']) {
      expect(page).toContain(`| \`${id}\` |`);
    }
  });
});
