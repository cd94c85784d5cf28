import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { bookshopPostgres, bookshopRows, bookshopSqlite } from './support/data/bookshop-schema.js';
import { describeWithPostgres } from '../src/data/testing/postgres.js';
import { plumb } from './support/cli.js';
import { tempDirEach } from './support/temp.js';

const books = [
  { title: 'The Dispossessed', author: { name: 'Ursula K. Le Guin' }, publisher: { name: 'Harper & Row' }, tags: [{ label: 'novel' }] },
  { title: 'Invisible Cities', author: { name: 'Italo Calvino' }, publisher: null, tags: [{ label: 'novel' }] },
  { title: 'Beowulf', author: null, publisher: null, tags: [{ label: 'classic' }] },
];

function bookshopFile(dir: string, name = 'shop.db'): string {
  const path = join(dir, name);
  const db = new BetterSqlite3(path);
  db.exec(bookshopSqlite);
  db.exec(bookshopRows);
  db.close();
  return path;
}

const digest = (path: string): string => createHash('sha256').update(readFileSync(path)).digest('hex');

/**
 * Writes the generated module beside a configuration that names it, turns chat exposure on (the
 * one edit a developer makes before anything shows), and asks Plumb for the books with their
 * authors (an integer key), publishers (a string key) and tags (through the join table).
 */
async function serveGenerated(dir: string, source: string, database: string): Promise<unknown> {
  writeFileSync(join(dir, 'managers.ts'), source.replaceAll('chatExposed: false', 'chatExposed: true'));
  writeFileSync(join(dir, 'plumb.config.json'), JSON.stringify({ app: './managers.ts', database }));
  const run = await plumb('graphql', '{ bookList { items { title author { name } publisher { name } tags { label } } } }', '--config', join(dir, 'plumb.config.json'));
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout);
}

describe('plumb introspect on SQLite', () => {
  const dir = tempDirEach('plumb-introspect-');

  it('prints a module of managers for the tables of an existing file, and a one-line summary on stderr', async () => {
    const run = await plumb('introspect', '--database', bookshopFile(dir.path));
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("import { defineHost, defineManager } from 'plumb-agent';");
    expect(run.stdout).toContain("export const Book = defineManager({\n  name: 'Book',\n  table: 'books',");
    expect(run.stdout).toContain("    author: { kind: 'one', target: 'Author', column: 'author_id', nullable: true },");
    expect(run.stdout).toContain("    tags: { kind: 'manyToMany', target: 'Tag', through: 'book_tags', sourceColumn: 'book_id', targetColumn: 'tag_id' },");
    expect(run.stdout).toContain("    id: { type: 'string' },");
    expect(run.stdout).not.toContain('plumb_journal');
    expect(run.stdout).toMatch(/managers: \[Author, Publisher, Tag, Book\],\n {2}tables: 'attach',/);
    expect(run.stderr).toBe('plumb introspect: 6 tables → 4 managers, 1 many-to-many; skipped 1 table (audit_log) and 1 column, each said why in the output\n');
  });

  it('reads CHECK (col IN (…)) as an enum, a join table with an optional extra column as a relation, and says why a tag list is skipped', async () => {
    const path = join(dir.path, 'crew.db');
    new BetterSqlite3(path).exec(`
      create table crews (id integer primary key, name text not null, shift text not null default 'day' check (shift in ('day', 'night')));
      create table sites (id integer primary key, name text not null);
      create table crew_sites (crew_id integer not null references crews (id), site_id integer not null references sites (id), since date, primary key (crew_id, site_id));
      create table crew_skills (crew_id integer not null references crews (id), skill text not null, primary key (crew_id, skill));`).close();
    const run = await plumb('introspect', '--database', path);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("    shift: { type: 'enum', values: ['day', 'night'], default: 'day' },");
    expect(run.stdout).toContain("    sites: { kind: 'manyToMany', target: 'Site', through: 'crew_sites', sourceColumn: 'crew_id', targetColumn: 'site_id' },");
    expect(run.stdout).toContain('// sites goes through crew_sites, whose other column (since) is not mapped');
    expect(run.stdout.replace(/\n \* +/g, ' ')).toContain('- crew_skills: a list of skill values per row of crews (its primary key (crew_id, skill) has 2 columns: crew_id → crews), and Plumb has no many-valued field;');
    expect(run.stderr).toBe('plumb introspect: 4 tables → 2 managers, 1 many-to-many; skipped 1 table (crew_skills), each said why in the output\n');
  });

  it('leaves the database file exactly as it was', async () => {
    const path = bookshopFile(dir.path);
    const before = digest(path);
    expect((await plumb('introspect', '--database', `sqlite:${path}`)).code).toBe(0);
    expect(digest(path)).toBe(before);
    expect(existsSync(`${path}-wal`)).toBe(false);
  });

  it('writes --out, and refuses to overwrite it without --force', async () => {
    const path = bookshopFile(dir.path);
    const out = join(dir.path, 'app', 'managers.ts');
    const first = await plumb('introspect', '--database', path, '--out', out);
    expect(first.code).toBe(0);
    expect(first.stdout).toBe('');
    expect(first.stderr).toMatch(/; wrote .*managers\.ts\n$/);
    writeFileSync(out, '// my edits\n');
    const again = await plumb('introspect', '--database', path, '--out', out);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/managers\.ts already exists; nothing was written\. Pass --force to overwrite it/);
    expect(readFileSync(out, 'utf8')).toBe('// my edits\n');
    expect((await plumb('introspect', '--database', path, '--out', out, '--force')).code).toBe(0);
    expect(readFileSync(out, 'utf8')).toContain('export const Book = defineManager');
  });

  it("reads the configuration's database (relative to its folder) without loading the app it names", async () => {
    bookshopFile(dir.path);
    const config = join(dir.path, 'plumb.config.json');
    writeFileSync(config, JSON.stringify({ app: './managers.ts', database: 'sqlite:shop.db' }));
    const run = await plumb('introspect', '--config', config);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('export const Author = defineManager');
  });

  it('generates managers Plumb serves: books with their authors, publishers and tags come back through GraphQL', async () => {
    const path = bookshopFile(dir.path);
    const generated = await plumb('introspect', '--database', path);
    expect(generated.code).toBe(0);
    expect(await serveGenerated(dir.path, generated.stdout, './shop.db')).toEqual({ data: { bookList: { items: books } } });
  });

  it('exits 1 with database_not_found for a SQLite file that does not exist, and creates nothing', async () => {
    const path = join(dir.path, 'missing.db');
    const run = await plumb('introspect', '--database', path);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^plumb: database_not_found: No SQLite database at '.*missing\.db'\. plumb introspect reads a database that exists: check the path/);
    expect(existsSync(path)).toBe(false);
  });

  it('exits 1 for a file that is not a SQLite database', async () => {
    const path = join(dir.path, 'notes.txt');
    writeFileSync(path, 'not a database, just words\n'.repeat(100));
    const run = await plumb('introspect', '--database', path);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/notes\.txt' is not a SQLite database Plumb can read/);
  });

  it('exits 1 when the database has no table to map, writing nothing', async () => {
    const path = join(dir.path, 'empty.db');
    new BetterSqlite3(path).exec('create table log (at text, line text)').close();
    const out = join(dir.path, 'managers.ts');
    const run = await plumb('introspect', '--database', path, '--out', out);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/no table of .*empty\.db can be a manager \(log: it has no primary key \(Plumb needs a single-column key\)\); nothing was written/);
    expect(existsSync(out)).toBe(false);
  });

  it.each([
    [['introspect', '--database', 'mysql://root@127.0.0.1/shop'], 1, /^plumb: invalid_database_url: --database: the scheme 'mysql:' of 'mysql:\/\/root@127\.0\.0\.1\/shop' is not a database Plumb opens\. Use sqlite:PATH/],
    [['introspect', '--database', ':memory:'], 2, /^plumb: ':memory:' is a new, empty database: name an existing SQLite file or a postgres:\/\/ URL/],
    [['introspect', '--config', '/nowhere/plumb.config.json'], 1, /^plumb: config_not_found: No configuration file at '\/nowhere\/plumb\.config\.json'/],
  ])('refuses %j with exit %i and a one-line reason', async (args, code, reason) => {
    const run = await plumb(...args);
    expect(run.code).toBe(code);
    expect(run.stderr).toMatch(reason);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
  });

  describe('with no --database and no configuration', () => {
    let cwd: string | undefined;
    afterEach(() => {
      if (cwd !== undefined) process.chdir(cwd);
    });

    it('exits 2 and says how to name the database', async () => {
      cwd = process.cwd();
      process.chdir(dir.path);
      const run = await plumb('introspect');
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/^plumb: say which database to read: --database sqlite:PATH or --database postgres:\/\//);
    });
  });

  it('documents itself in --help', async () => {
    const run = await plumb('introspect', '--help');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/Usage: plumb introspect \[options\]/);
    for (const option of ['--database <url>', '--out <file>', '--force', '--config <file>']) expect(run.stdout).toContain(option);
    expect(run.stdout).toMatch(/search_path/);
  });
});

describeWithPostgres('plumb introspect on PostgreSQL', (server) => {
  const dir = tempDirEach('plumb-introspect-pg-');

  /** A URL whose connections use `schema` (what a host with its tables outside public would write). */
  const inSchema = (schema: string): string => {
    const url = new URL(server.url);
    url.searchParams.set('options', `-c search_path=${schema}`);
    return url.toString();
  };

  const bookshop = async (): Promise<string> => {
    const schema = await server.freshSchema();
    await server.admin(`set search_path to "${schema}"; ${bookshopPostgres} ${bookshopRows}; reset search_path`);
    return inSchema(schema);
  };

  it('prints managers for the connection schema: a uuid key, numeric(10,2) as a decimal, the enum with its values', async () => {
    const run = await plumb('introspect', '--database', await bookshop());
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/existing PostgreSQL database \(schema\s+(?:\* )?"plumb_test_\w+"\)/);
    expect(run.stdout).toContain("    price: { type: 'decimal', scale: 2, nullable: true },");
    expect(run.stdout).toContain("    status: { type: 'enum', values: ['draft', 'published', 'out_of_print'], default: 'draft' },");
    expect(run.stdout).toContain("    publisher: { kind: 'one', target: 'Publisher', column: 'publisher_id', nullable: true },");
    expect(run.stdout).toMatch(/export const Publisher = defineManager\(\{\n {2}name: 'Publisher',\n {2}table: 'publishers',\n {2}fields: \{\n {4}id: \{ type: 'string' \},/);
    expect(run.stderr).toBe('plumb introspect: 6 tables → 4 managers, 1 many-to-many; skipped 1 table (audit_log) and 1 column, each said why in the output\n');
  });

  it('reads a CHECK (col IN (…)) on a varchar column as an enum', async () => {
    const schema = await server.freshSchema();
    await server.admin(`create table "${schema}".crews (id serial primary key, shift varchar(8) not null check (shift in ('day', 'night')))`);
    const run = await plumb('introspect', '--database', inSchema(schema));
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("    shift: { type: 'enum', values: ['day', 'night'] },");
  });

  it('generates managers Plumb serves: books with their authors, publishers and tags come back through GraphQL', async () => {
    const url = await bookshop();
    const generated = await plumb('introspect', '--database', url);
    expect(generated.code).toBe(0);
    expect(await serveGenerated(dir.path, generated.stdout, url)).toEqual({ data: { bookList: { items: books } } });
  });

  const variant = (change: (url: URL) => void): string => {
    const url = new URL(server.url);
    change(url);
    return url.toString();
  };

  it.each([
    ['a wrong password', () => variant((url) => (url.password = 'not-the-password')), /^plumb: database_auth_failed: PostgreSQL at .* refused user '.*'.*Check the user name and password/],
    ['an unknown database', () => variant((url) => (url.pathname = '/no_such_database_here')), /^plumb: unknown_database: PostgreSQL at .* has no database 'no_such_database_here'\. Check the database name/],
    ['a server that is not there', () => variant((url) => (url.port = '1')), /^plumb: database_unreachable: Cannot reach PostgreSQL at 127\.0\.0\.1:1\/.*Check that the server is running/],
  ])('exits 1 with the data layer\'s coded error for %s', async (_what, url, reason) => {
    const run = await plumb('introspect', '--database', url());
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(reason);
    expect(run.stderr).not.toContain('not-the-password');
  });
});
