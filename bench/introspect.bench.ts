/**
 * `npm run bench -- introspect [--tables N] [--runs N]`: `plumb introspect` on a generated schema of
 * 200 tables (entities of 8 columns with foreign keys between them, and join tables), on a SQLite
 * file and on PostgreSQL (PLUMB_TEST_POSTGRES_URL; skipped without it). Medians of the whole
 * command (open, introspect, render, write, close) and of its two parts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { runCli } from '../src/cli/index.js';
import { renderManagers } from '../src/cli/introspect/render-managers.js';
import { introspectDatabase, sqlite } from '../src/data/index.js';
import type { Database } from '../src/data/index.js';
import { postgres } from '../src/postgres/index.js';
import type { Benchmark } from './harness.js';
import { machineLine, measure, printTable, summarize } from './harness.js';

function option(args: readonly string[], name: string, fallback: number): number {
  const index = args.indexOf(name);
  const value = index < 0 ? undefined : Number(args[index + 1]);
  return value === undefined || !Number.isInteger(value) || value < 1 ? fallback : value;
}

/** Every tenth table joins the two entities before it; the others are entities pointing back at earlier ones. */
function schemaStatements(tables: number, dialect: 'sqlite' | 'postgres'): string[] {
  const key = dialect === 'sqlite' ? 'integer primary key' : 'serial primary key';
  const statements: string[] = [];
  const entities: string[] = [];
  for (let i = 0; i < tables; i++) {
    if (i % 10 === 9 && entities.length >= 2) {
      const [a, b] = entities.slice(-2);
      statements.push(`create table link_${i}s (${a}_id integer not null references ${a} (id), ${b}_id integer not null references ${b} (id), primary key (${a}_id, ${b}_id))`);
      continue;
    }
    const name = `entity_${String(i).padStart(3, '0')}`;
    const parent = entities.length > 0 ? entities[Math.floor(entities.length / 2)] : undefined;
    const previous = entities.at(-1);
    statements.push(`create table ${name} (
      id ${key}, name varchar(80) not null, code text, amount numeric(10,2), quantity integer not null default 0,
      active boolean not null default true, created_on date,
      ${parent === undefined ? 'parent_ref integer' : `parent_id integer references ${parent} (id)`},
      ${previous === undefined ? 'previous_ref integer' : `previous_id integer references ${previous} (id)`})`);
    entities.push(name);
  }
  return statements;
}

/** Runs statements a hundred at a time: one batch of a thousand CREATE TABLEs outgrows PostgreSQL's lock table. */
async function inBatches(statements: readonly string[], run: (text: string) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < statements.length; i += 100) await run(statements.slice(i, i + 100).join(';\n'));
}

/** The database with its execute calls counted. */
function counting(database: Database): { database: Database; statements: () => number } {
  let statements = 0;
  const execute: Database['execute'] = (query) => {
    statements++;
    return database.execute(query);
  };
  return { database: new Proxy(database, { get: (target, key) => (key === 'execute' ? execute : Reflect.get(target, key, target) as unknown) }), statements: () => statements };
}

async function time(label: string, open: () => Promise<Database>, url: string, runs: number, dir: string): Promise<(string | number)[]> {
  const database = await open();
  const counted = counting(database);
  const schema = await introspectDatabase(counted.database);
  const statements = counted.statements();
  const introspect = summarize(await measure(runs, () => introspectDatabase(database), 1));
  await database.close();
  const { summary } = renderManagers(schema);
  const render = summarize(await measure(runs, () => renderManagers(schema), 1));
  const out = join(dir, `${label}.ts`);
  const quiet = { stdout: () => undefined, stderr: () => undefined };
  const command = summarize(await measure(runs, async () => {
    const code = await runCli(['introspect', '--database', url, '--out', out, '--force'], quiet);
    if (code !== 0) throw new Error(`plumb introspect exited ${code}`);
  }, 1));
  return [label, ...[summary.tables, summary.managers, summary.manyToMany, statements].map(String), introspect.median, render.median, command.median, command.max];
}

const benchmark: Benchmark = {
  name: 'introspect',
  async run(args) {
    const tables = option(args, '--tables', 200);
    const runs = option(args, '--runs', 7);
    console.log(machineLine());
    const dir = mkdtempSync(join(tmpdir(), 'plumb-bench-introspect-'));
    const rows: (string | number)[][] = [];
    try {
      const file = join(dir, 'schema.db');
      const db = new BetterSqlite3(file);
      db.exec(schemaStatements(tables, 'sqlite').join(';\n'));
      db.close();
      rows.push(await time('SQLite file', () => Promise.resolve(sqlite({ path: file, readonly: true })), file, runs, dir));

      const server = process.env.PLUMB_TEST_POSTGRES_URL;
      if (server === undefined || server === '') console.log('PostgreSQL skipped: set PLUMB_TEST_POSTGRES_URL to a server to measure it too.');
      else {
        const schema = `plumb_bench_introspect_${process.pid}`;
        const admin = new pg.Client({ connectionString: server });
        await admin.connect();
        try {
          await admin.query(`drop schema if exists ${schema} cascade; create schema ${schema}; set search_path to ${schema}`);
          await inBatches(schemaStatements(tables, 'postgres'), (text) => admin.query(text));
          const url = new URL(server);
          url.searchParams.set('options', `-c search_path=${schema}`);
          rows.push(await time('PostgreSQL (loopback)', () => Promise.resolve(postgres({ url: server, schema })), url.toString(), runs, dir));
        } finally {
          const created = await admin.query<{ name: string }>(`select tablename as name from pg_tables where schemaname = $1 order by tablename desc`, [schema]);
          await inBatches(created.rows.map((row) => `drop table if exists ${schema}.${row.name} cascade`), (text) => admin.query(text));
          await admin.query(`drop schema if exists ${schema} cascade`);
          await admin.end();
        }
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    printTable(`plumb introspect on ${tables} tables (median of ${runs} runs, ms)`, ['database', 'tables', 'managers', 'many-to-many', 'statements', 'introspect', 'render', 'plumb introspect', 'slowest run'], rows);
  },
};

export default benchmark;
