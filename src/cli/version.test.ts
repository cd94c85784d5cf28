import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { plumbPackage, plumbVersion } from './version.js';

describe('the build\'s name and version', () => {
  it('are package.json\'s, so that `plumb init` depends on this package and `--version` tells the truth', () => {
    const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { name: string; version: string };
    expect({ name: plumbPackage, version: plumbVersion }).toEqual({ name: manifest.name, version: manifest.version });
  });
});
