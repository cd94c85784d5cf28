import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { plumb } from './support/cli.js';
import { tempDirEach, writeFileIn } from './support/temp.js';

const host = "import { defineHost, defineManager } from 'plumb-agent';\nexport default defineHost({ managers: [defineManager({ name: 'Note', fields: { body: 'string' }, chatExposed: true })] });\n";

/** Bad input to the configuration and what it names: each a coded error, exit 1, nothing created. */
describe('a configuration that names what is not there', () => {
  const dir = tempDirEach('plumb-config-errors-');
  const write = (file: string, text: string): string => writeFileIn(dir.path, file, text);
  const config = (settings: Record<string, unknown>): string => write('plumb.config.json', JSON.stringify(settings));
  const problems = async (file: string): Promise<{ code: string; message: string }[]> => {
    const run = await plumb('check', '--config', file, '--json');
    expect(run.code).toBe(1);
    return (JSON.parse(run.stdout) as { problems: { code: string; message: string }[] }).problems;
  };

  it('names a missing app module, a module without the export it needs, and a bad database URL in one run', async () => {
    write('auth.ts', 'export const nothing = 1;\n');
    const found = await problems(config({ app: './missing.ts', authenticate: './auth.ts', database: 'mysql://root@db/app' }));
    expect(found.map((problem) => problem.code)).toEqual(['module_not_found', 'module_export_missing']);
    expect(found[0]!.message).toBe(`No module at '${join(dir.path, 'missing.ts')}'. Check the path (it is relative to ${dir.path}).`);
    expect(found[1]!.message).toContain("authenticate: the module './auth.ts' must export a function (request) => actor | null as 'authenticate' or its default export; it exports nothing.");

    write('app.ts', host);
    const database = await problems(config({ app: './app.ts', database: 'mysql://root@db/app' }));
    expect(database).toEqual([{ code: 'invalid_database_url', message: expect.stringContaining("the scheme 'mysql:' of 'mysql://root@db/app' is not a database Plumb opens") }]);
    const served = await plumb('serve', '--config', join(dir.path, 'plumb.config.json'), '--port', '0');
    expect(served.code).toBe(1);
    expect(served.stderr).toContain('invalid_database_url');
  });

  it('says which module lacks a default export, and which keys a host definition does not have', async () => {
    // A module loads once a process; each version here is a file of its own.
    write('no-default.ts', 'export const managers = [];\n');
    expect((await problems(config({ app: './no-default.ts' })))[0]).toMatchObject({ code: 'module_export_missing', message: expect.stringContaining("app: the module './no-default.ts' must export its host definition as its default export") });
    write('bad-keys.ts', "export default { managers: [], colour: 'red' };\n");
    const invalid = (await problems(config({ app: './bad-keys.ts' })))[0]!;
    expect(invalid.code).toBe('invalid_host');
    expect(invalid.message).toContain("Unknown key 'colour'.");
    expect(invalid.message).toContain("'managers' is a non-empty list");
  });

  it('names a variable the configuration uses and the environment does not set', async () => {
    write('app.ts', host);
    write('env.json', JSON.stringify({ app: './app.ts', database: '${PLUMB_TEST_NOT_SET_ANYWHERE}' }));
    const unset = await plumb('graphql', '{ x }', '--config', join(dir.path, 'env.json'));
    expect(unset.code).toBe(1);
    expect(unset.stderr).toContain("config_env_missing: Setting 'database' uses ${PLUMB_TEST_NOT_SET_ANYWHERE}, which is not set.");
    const unknownActor = await plumb('graphql', '{ x }', '--config', write('ok.json', JSON.stringify({ app: './app.ts', database: ':memory:' })), '--as', 'nobody');
    expect(unknownActor.code).toBe(2);
    expect(unknownActor.stderr).toContain("unknown actor 'nobody' for --as; choose one of anonymous");
  });

  it('names an attached SQLite file that does not exist, without creating it', async () => {
    write('app.ts', host.replace('defineHost({', "defineHost({ tables: 'attach',"));
    const found = await problems(config({ app: './app.ts', database: 'sqlite:host.db' }));
    expect(found).toEqual([{ code: 'database_not_found', message: expect.stringContaining(`No SQLite database at '${join(dir.path, 'host.db')}'`) }]);
    expect(existsSync(join(dir.path, 'host.db'))).toBe(false);
  });

  it('names a PostgreSQL server that does not answer, never its password', async () => {
    const closed = await new Promise<number>((resolve) => {
      const server = createServer();
      server.listen(0, '127.0.0.1', () => {
        const { port } = server.address() as { port: number };
        server.close(() => resolve(port));
      });
    });
    write('app.ts', host);
    const found = await problems(config({ app: './app.ts', database: `postgres://plumb:secret@127.0.0.1:${closed}/app` }));
    expect(found).toEqual([{ code: 'database_unreachable', message: expect.stringContaining(`Cannot reach PostgreSQL at 127.0.0.1:${closed}/app`) }]);
    expect(found[0]!.message).not.toContain('secret');
  });

  it("catches a read permission that filters on a misspelled key before anyone asks: permission_error with a did-you-mean, exit 1", async () => {
    write(
      'app.ts',
      `import { defineHost, defineManager } from 'plumb-agent';
const Owner = defineManager({ name: 'Owner', fields: { email: 'string' } });
const Ticket = defineManager({
  name: 'Ticket',
  fields: { subject: 'string' },
  relations: { owner: { kind: 'one', target: 'Owner' } },
  chatExposed: true,
  permissions: { read: (actor) => (actor.kind === 'user' ? { owner__mail: actor.id } : false) },
});
export default defineHost({ managers: [Owner, Ticket] });
`,
    );
    const file = config({ app: './app.ts', database: ':memory:', actors: { alice: { id: 'alice@example.com', roles: [] }, bob: { id: 'bob@example.com', roles: [] } } });
    const found = await problems(file);
    expect(found).toEqual([
      {
        code: 'permission_error',
        message: "Ticket: the read permission, for 'alice', 'bob', returns a filter on 'owner__mail', which Ticket does not have: every read of Ticket would be refused (permission_error). Did you mean 'owner__email' or 'owner__id' or 'owner__in'?",
      },
    ]);
    const text = await plumb('check', '--config', file);
    expect(text.code).toBe(1);
    expect(text.stdout).toContain("permission_error: Ticket: the read permission, for 'alice', 'bob', returns a filter on 'owner__mail'");
    expect(text.stdout).not.toContain('no problems');
    // Spelled right, the same configuration checks clean.
    write('fixed-app.ts', readFileSync(join(dir.path, 'app.ts'), 'utf8').replace('owner__mail', 'owner__email'));
    const fixed = await plumb('check', '--config', write('fixed.json', JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), app: './fixed-app.ts' })));
    expect(fixed.stdout).toContain('no problems');
    expect(fixed.code).toBe(0);
  });

  it('checks a ported configuration clean, saying what its seed names were read as', async () => {
    const file = config({ summarizeAfter: 40, maxRecentMessages: 20 });
    const json = await plumb('check', '--config', file, '--json');
    expect(json.code).toBe(0);
    const report = JSON.parse(json.stdout) as { problems: unknown[]; notes: string[] };
    expect(report.problems).toEqual([]);
    expect(report.notes).toContain('summarizeAfter: 40 is read as compactionThreshold: 0.313 (40 messages of about 1,000 tokens in a 128,000-token window); set compactionThreshold instead.');
    const text = await plumb('check', '--config', file);
    expect(text.stdout).toContain('note: maxRecentMessages: 20 is read as compactionTargetTokens: 20000');
    expect(text.stdout).not.toContain('Did you mean');
  });

  it("prints the provider's settings, never its key", async () => {
    const key = 'sk-check-SECRET-9876';
    const file = config({ provider: 'openai', providerConfig: { model: 'gpt-test', apiKey: key, baseUrl: 'http://127.0.0.1:9/v1', headers: { Authorization: `Bearer ${key}` } } });
    const run = await plumb('check', '--config', file);
    expect(run.stdout).toContain('note: provider openai: model gpt-test, baseUrl http://127.0.0.1:9/v1, API key from apiKey, timeoutSeconds 60, streamTimeoutSeconds 30, maxTokens not sent.');
    expect(`${run.stdout}${run.stderr}`).not.toContain(key);
    expect((await plumb('check', '--config', file, '--json')).stdout).not.toContain(key);
  });
});
