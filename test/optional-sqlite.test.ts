import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from './support/temp.js';

const run = promisify(execFile);
const root = join(import.meta.dirname, '..');

/**
 * better-sqlite3 is an optional dependency, loaded only when SQLite is used: the built package,
 * installed without it (as `npm install --omit=optional`, or where it fails to compile), still
 * loads, and a SQLite database says how to get the driver instead of crashing on import.
 */
describe('the package without better-sqlite3', () => {
  const dir = tempDir('plumb-no-sqlite-');
  afterAll(() => dir.remove());
  let cli: string;
  beforeAll(() => {
    if (!existsSync(join(root, 'dist', 'cli', 'main.js'))) throw new Error('dist/ is missing: npm test builds it first (npm run build)');
    const pkg = join(dir.path, 'package');
    cpSync(join(root, 'dist'), join(pkg, 'dist'), { recursive: true });
    cpSync(join(root, 'package.json'), join(pkg, 'package.json'));
    mkdirSync(join(pkg, 'node_modules'));
    for (const name of readdirSync(join(root, 'node_modules'))) {
      if (name !== 'better-sqlite3' && name !== '.bin') symlinkSync(join(root, 'node_modules', name), join(pkg, 'node_modules', name));
    }
    cli = join(pkg, 'dist', 'cli', 'main.js');
  });

  it('loads its root and its command', async () => {
    const loaded = await run(process.execPath, ['--input-type=module', '-e', `const plumb = await import(${JSON.stringify(join(dir.path, 'package', 'dist', 'index.js'))}); console.log(typeof plumb.defineManager)`]);
    expect(loaded.stdout.trim()).toBe('function');
    const help = await run(process.execPath, [cli, '--help']);
    expect(help.stdout).toContain('Usage: plumb');
  });

  it('answers a SQLite database with sqlite_unavailable and how to install the driver', async () => {
    const failed = await run(process.execPath, [cli, 'ask', 'show me order 4411', '--demo', '--db', ':memory:']).then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stderr).toMatch(/^plumb: sqlite_unavailable: SQLite needs the better-sqlite3 package, which is not installed: npm install better-sqlite3@12/);
    expect(failed?.stderr).not.toMatch(/\n\s+at /);
  });
});
