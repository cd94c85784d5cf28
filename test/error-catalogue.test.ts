import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Every folder declares its error codes once, in `src/<folder>/errors.ts`, as an object whose name
 * ends in `ErrorCodes`. Each code must be documented (as `code` in some page of docs/), must be
 * lower_snake_case, and no code may mean two things in two folders.
 */
const root = join(import.meta.dirname, '..');
const folders = readdirSync(join(root, 'src'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(join(root, 'src', entry.name, 'errors.ts')))
  .map((entry) => entry.name);
const docs = readdirSync(join(root, 'docs'))
  .filter((file) => file.endsWith('.md'))
  .map((file) => readFileSync(join(root, 'docs', file), 'utf8'))
  .join('\n');

async function catalogues(folder: string): Promise<[string, Record<string, string>][]> {
  const module = (await import(join(root, 'src', folder, 'errors.ts'))) as Record<string, unknown>;
  return Object.entries(module).filter(([name]) => name.endsWith('ErrorCodes')) as [string, Record<string, string>][];
}

describe('error catalogues', () => {
  it('finds a catalogue in every errors.ts', async () => {
    expect(folders.length).toBeGreaterThan(0);
    for (const folder of folders) expect((await catalogues(folder)).length, `src/${folder}/errors.ts`).toBeGreaterThan(0);
  });

  it.each(folders)('documents every code of src/%s in docs/', async (folder) => {
    for (const [, catalogue] of await catalogues(folder)) {
      for (const [code, meaning] of Object.entries(catalogue)) {
        expect(code, `${folder}: ${code}`).toMatch(/^[a-z][a-z0-9_]*$/);
        expect(meaning.length, `${folder}: ${code} has a meaning`).toBeGreaterThan(10);
        expect(docs.includes(`\`${code}\``), `${code} (src/${folder}/errors.ts) is documented in docs/`).toBe(true);
      }
    }
  });
});
