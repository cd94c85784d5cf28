import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { describeWithPostgres } from '../src/data/testing/postgres.js';
import { plumb } from './support/cli.js';
import { startServe } from './support/serve-process.js';
import type { ServeProcess } from './support/serve-process.js';
import { tempDirEach } from './support/temp.js';

describe('plumb init', () => {
  const dir = tempDirEach('plumb-init-');
  let served: ServeProcess | undefined;
  afterEach(() => {
    if (served !== undefined && served.child.exitCode === null) served.child.kill('SIGKILL');
    served = undefined;
  });

  it('writes a working app that answers with no model, as two users who see different rows, and confirms a write', async () => {
    const made = await plumb('init', dir.path);
    expect(made.code).toBe(0);
    for (const file of ['plumb.config.ts', 'app/index.ts', 'app/managers.ts', 'app/tools.ts', 'app/seed.ts', 'app/authenticate.ts', 'package.json', '.gitignore']) expect(existsSync(join(dir.path, file)), file).toBe(true);
    expect(JSON.parse(readFileSync(join(dir.path, 'package.json'), 'utf8'))).toMatchObject({ type: 'module', scripts: { start: 'plumb serve' }, dependencies: { 'plumb-agent': '^0.1.0' } });
    const config = join(dir.path, 'plumb.config.ts');
    expect((await plumb('check', '--config', config)).code).toBe(0);

    const count = async (as: string) => (await plumb('ask', 'how many items are there?', '--config', config, '--as', as)).stdout;
    expect(await count('anonymous')).toBe('0 items (count of items).\n');
    expect(await count('ben')).toBe('3 items (count of items).\n');
    expect(await count('ada')).toBe('5 items (count of items).\n');
    const refused = await plumb('ask', 'restock item 1 with 5 units', '--config', config, '--as', 'ben', '--yes');
    expect(refused.stdout).toContain('No item 1 that you can see.');
    expect(refused.code, 'a confirmed write that answered an error was not made').toBe(4);
    expect(refused.stderr).toMatch(/plumb: 'restock_item' was not made: it answered \w+ \(exit 4\)/);
    const restocked = await plumb('ask', 'restock item 3 with 20 units', '--config', config, '--as', 'ben', '--yes');
    expect(restocked.stdout).toContain('quantity: 820');
    expect(restocked.code).toBe(0);

    served = await startServe(['--config', config, '--port', '0'], (output) => output.includes('3. '));
    expect(served.output()).toContain('1. list the warehouses');
    const ask = (text: string, headers: Record<string, string>) =>
      fetch(`${served!.url}/chat/`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ text }) }).then(async (response) => ({ status: response.status, body: (await response.json()) as { answer: string; error?: { code: string } } }));
    const warehouses = await ask('list the warehouses', { authorization: 'Bearer ben-dev-token' });
    expect(warehouses.status).toBe(200);
    expect(warehouses.body.answer).toContain('Porto Docks');
    expect((await ask('how many items are there?', { authorization: 'Bearer ada-dev-token' })).body.answer).toBe('5 items (count of items).');
    expect((await ask('how many items are there?', { authorization: 'Bearer nobody' })).status).toBe(401);
    // A visitor's browser authenticates by cookie: without the CSRF pair the turn is refused.
    expect((await ask('how many items are there?', {})).body.error?.code).toBe('csrf_failed');
  });

  it('adds its scripts to a package.json it finds, and never overwrites a file unless told', async () => {
    writeFileSync(join(dir.path, 'package.json'), JSON.stringify({ name: 'mine', scripts: { start: 'node server.js', test: 'vitest' } }));
    const made = await plumb('init', dir.path);
    expect(made.code).toBe(0);
    expect(made.stdout).toContain('Added the scripts check, migrate to package.json.');
    expect(JSON.parse(readFileSync(join(dir.path, 'package.json'), 'utf8')).scripts).toEqual({ start: 'node server.js', test: 'vitest', check: 'plumb check', migrate: 'plumb migrate' });

    const again = await plumb('init', dir.path);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('plumb.config.ts, app/index.ts');
    expect(again.stderr).toContain('nothing was written. Pass --force to overwrite');
    expect((await plumb('init', dir.path, '--force')).code).toBe(0);
  });

  it('keeps a project\'s own .gitignore, adding the journal\'s folder and what else it lacks', async () => {
    writeFileSync(join(dir.path, '.gitignore'), 'node_modules\ndist/');
    const made = await plumb('init', dir.path);
    expect(made.code).toBe(0);
    expect(made.stdout).toContain('Added .plumb/, .env to .gitignore.');
    expect(readFileSync(join(dir.path, '.gitignore'), 'utf8')).toBe('node_modules\ndist/\n.plumb/\n.env\n');
  });

  it('refuses a database URL of an unknown scheme, writing nothing', async () => {
    const refused = await plumb('init', join(dir.path, 'app'), '--database', 'mysql://root@localhost/app');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("invalid_database_url: database: the scheme 'mysql:'");
    expect(existsSync(join(dir.path, 'app'))).toBe(false);
  });
});

describeWithPostgres('plumb init --database postgres://…', (server) => {
  const dir = tempDirEach('plumb-init-pg-');

  it('writes the URL to .env, and the app runs on PostgreSQL', async () => {
    const url = new URL(server.url);
    url.searchParams.set('options', `-c search_path=${await server.freshSchema()}`);
    expect((await plumb('init', dir.path, '--database', url.toString())).code).toBe(0);
    expect(readFileSync(join(dir.path, '.env'), 'utf8')).toBe(`DATABASE_URL=${url.toString()}\n`);
    const config = join(dir.path, 'plumb.config.ts');
    const previous = process.env.DATABASE_URL;
    try {
      const answer = await plumb('ask', 'how many items are there?', '--config', config, '--as', 'ada');
      expect(answer.stdout).toBe('5 items (count of items).\n');
    } finally {
      // .env sets only what the environment does not have; this process is shared by the tests.
      if (previous === undefined) delete process.env.DATABASE_URL;
      else process.env.DATABASE_URL = previous;
    }
  });
});
