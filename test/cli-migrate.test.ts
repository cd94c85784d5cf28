import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeWithPostgres } from '../src/data/testing/postgres.js';
import { plumb } from './support/cli.js';
import { tempDirEach } from './support/temp.js';

let version = 0;

/**
 * A host app in a folder of its own, as a user writes it: a managers module and a configuration.
 * Each version of the module is a file of its own: in one process a module loads once, and these
 * tests run every command in this one.
 */
function writeApp(dir: string, fields: string, database = 'sqlite:app.sqlite'): string {
  const module = `app-${++version}.ts`;
  writeFileSync(
    join(dir, module),
    `import { defineHost, defineManager } from 'plumb-agent';

const Author = defineManager({ name: 'Author', fields: { name: 'string' }, chatExposed: true });
const Book = defineManager({
  name: 'Book',
  fields: { ${fields} },
  relations: { author: { kind: 'one', target: 'Author' } },
  chatExposed: true,
});

export default defineHost({
  managers: [Author, Book],
  seed: [
    { manager: 'Author', rows: [{ id: 1, name: 'Ursula' }] },
    { manager: 'Book', rows: [{ id: 1, title: 'The Dispossessed', author: 1 }] },
  ],
});
`,
  );
  const config = join(dir, 'plumb.config.json');
  writeFileSync(config, JSON.stringify({ app: `./${module}`, database }));
  return config;
}

const titleOnly = "title: 'string'";
const withYear = "title: 'string', year: { type: 'integer', nullable: true }";

describe('plumb migrate', () => {
  const dir = tempDirEach('plumb-migrate-');

  it('creates a new database without migrations, then turns a changed manager into a migration that up applies', async () => {
    const config = writeApp(dir.path, titleOnly);
    const first = await plumb('graphql', '{ bookList { items { title } } }', '--config', config);
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout)).toEqual({ data: { bookList: { items: [{ title: 'The Dispossessed' }] } } });

    writeApp(dir.path, withYear);
    const mismatch = await plumb('graphql', '{ bookList { items { title } } }', '--config', config);
    expect(mismatch.code).toBe(1);
    expect(mismatch.stderr).toContain("schema_mismatch: The database does not match the managers: - Table 'book' has no column 'year' for Book.year (integer).");
    expect(mismatch.stderr).toContain('run plumb migrate generate to write a migration for the difference, review it, then plumb migrate up');

    const status = await plumb('migrate', 'status', '--config', config);
    expect(status.stdout).toContain("+ new column 'book.year' for Book.year (integer)");

    const generated = await plumb('migrate', 'generate', '--config', config);
    expect(generated.code).toBe(0);
    const files = readdirSync(join(dir.path, 'migrations')).sort();
    expect(files).toHaveLength(2);
    expect(files[0]).toMatch(/^\d{8}T\d{6}_baseline\.ts$/);
    expect(files[1]).toMatch(/^\d{8}T\d{6}_add_book_year\.ts$/);
    expect(readFileSync(join(dir.path, 'migrations', files[1]!), 'utf8')).toContain("await db.schema.alterTable('book').addColumn('year', 'integer').execute();");

    const pending = await plumb('graphql', '{ bookList { items { title } } }', '--config', config);
    expect(pending.code).toBe(1);
    expect(pending.stderr).toMatch(/migrations_pending: 2 migrations are not applied to the database yet .* Run plumb migrate up/);

    const up = await plumb('migrate', 'up', '--config', config);
    expect(up.code).toBe(0);
    expect(up.stdout).toContain('Applied to sqlite:app.sqlite:');
    const after = await plumb('graphql', '{ bookList { items { title year } } }', '--config', config);
    expect(JSON.parse(after.stdout)).toEqual({ data: { bookList: { items: [{ title: 'The Dispossessed', year: null }] } } });
    expect((await plumb('migrate', 'generate', '--config', config)).stdout).toBe('The database matches the managers: nothing to generate.\n');
    expect((await plumb('migrate', 'up', '--config', config)).stdout).toMatch(/^Nothing to apply/);
  });

  it('builds a new database from the migrations alone, and seeds it', async () => {
    const config = writeApp(dir.path, titleOnly);
    await plumb('graphql', '{ bookList { items { id } } }', '--config', config);
    writeApp(dir.path, withYear);
    expect((await plumb('migrate', 'generate', '--config', config)).code).toBe(0);
    writeFileSync(config, JSON.stringify({ ...JSON.parse(readFileSync(config, 'utf8')), database: 'sqlite:fresh.sqlite' }));
    expect((await plumb('migrate', 'up', '--config', config)).code).toBe(0);
    const books = await plumb('graphql', '{ bookList { items { title year author { name } } } }', '--config', config);
    expect(JSON.parse(books.stdout)).toEqual({ data: { bookList: { items: [{ title: 'The Dispossessed', year: null, author: { name: 'Ursula' } }] } } });
  });

  it('lists what could lose data, refuses to write it, and changes nothing', async () => {
    const config = writeApp(dir.path, withYear);
    await plumb('graphql', '{ bookList { items { id } } }', '--config', config);
    writeApp(dir.path, "title: 'integer', pages: 'integer'");
    const refused = await plumb('migrate', 'generate', '--config', config);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain("! 'book.title' is 'text' in the database but Book.title (integer) needs 'integer'");
    expect(refused.stdout).toContain("! 'book.year' maps to no field of Book any more");
    expect(refused.stdout).toContain('! Book.pages (integer) is a new required column of \'book\'');
    expect(refused.stderr).toMatch(/3 differences could lose data, .* Nothing was written\./);
    expect(existsSync(join(dir.path, 'migrations'))).toBe(false);
  });

  it('refuses a new migration while another is pending, and an attached app', async () => {
    const config = writeApp(dir.path, titleOnly);
    await plumb('graphql', '{ bookList { items { id } } }', '--config', config);
    writeApp(dir.path, withYear);
    await plumb('migrate', 'generate', '--config', config);
    const again = await plumb('migrate', 'generate', '--config', config);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('not applied yet: run plumb migrate up first');

    writeFileSync(join(dir.path, 'attached.ts'), "import { defineHost, defineManager } from 'plumb-agent';\nexport default defineHost({ tables: 'attach', managers: [defineManager({ name: 'Book', fields: { title: 'string' } })] });\n");
    writeFileSync(config, JSON.stringify({ app: './attached.ts', database: 'sqlite:app.sqlite' }));
    const attached = await plumb('migrate', 'status', '--config', config);
    expect(attached.code).toBe(1);
    expect(attached.stderr).toContain("tables: 'attach'");
    expect((await plumb('migrate', 'sideways', '--config', config)).code).toBe(2);
  });
});

describeWithPostgres('plumb migrate on PostgreSQL', (server) => {
  const dir = tempDirEach('plumb-migrate-pg-');

  it('generates and applies a migration on PostgreSQL in the database\'s own types', async () => {
    const schema = await server.freshSchema();
    const url = new URL(server.url);
    url.searchParams.set('options', `-c search_path=${schema}`);
    const config = writeApp(dir.path, titleOnly, url.toString());
    expect((await plumb('graphql', '{ bookList { items { title } } }', '--config', config)).code).toBe(0);
    writeApp(dir.path, "title: 'string', price: { type: 'decimal', default: '0.00' }", url.toString());
    const generated = await plumb('migrate', 'generate', '--config', config, '--name', 'book_price');
    expect(generated.code).toBe(0);
    const file = readdirSync(join(dir.path, 'migrations')).find((name) => name.endsWith('_book_price.ts'))!;
    expect(readFileSync(join(dir.path, 'migrations', file), 'utf8')).toContain("addColumn('price', 'numeric(38, 2)', (col) => col.notNull().defaultTo(\"0.00\"))");
    expect((await plumb('migrate', 'up', '--config', config)).code).toBe(0);
    const books = await plumb('graphql', '{ bookList { items { title price } } }', '--config', config);
    expect(JSON.parse(books.stdout)).toEqual({ data: { bookList: { items: [{ title: 'The Dispossessed', price: '0.00' }] } } });
  });
});
