import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as plumb from '../src/index.js';

const root = join(import.meta.dirname, '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  exports: Record<string, string | { import: string; types: string }>;
  bin: Record<string, string>;
};

describe('the package', () => {
  it('maps every export to a folder face that exists in the source', () => {
    for (const [subpath, target] of Object.entries(manifest.exports)) {
      if (typeof target === 'string') continue;
      const source = target.import.replace('./dist/', 'src/').replace(/\.js$/, '.ts');
      expect(existsSync(join(root, source)), `${subpath} → ${source}`).toBe(true);
    }
    expect(existsSync(join(root, manifest.bin.plumb!.replace('dist/', 'src/').replace(/\.js$/, '.ts')))).toBe(true);
  });

  it('offers the main building blocks from its root', () => {
    for (const name of ['defineManager', 'defineApp', 'sqlite', 'defineTool', 'createDispatcher', 'createEngine', 'collect', 'createMemoryStore', 'openSqliteStore', 'PlumbError']) {
      expect(typeof (plumb as Record<string, unknown>)[name], name).toBe('function');
    }
  });
});
