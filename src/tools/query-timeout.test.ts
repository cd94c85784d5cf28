import { join } from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { userActor } from '../core/index.js';
import { defineApp, defineManager, sqlite } from '../data/index.js';
import type { App, Database } from '../data/index.js';
import { describeWithPostgres } from '../data/testing/postgres.js';
import { tempDirEach } from '../../test/support/temp.js';
import { createChatDispatcher, isToolError } from './index.js';
import type { ToolResult } from './index.js';

/**
 * queryTimeoutSeconds stops the statement in the database, not only the tool's wait: a manager
 * over a view whose count runs for minutes (SQLite: a recursive CTE; PostgreSQL: pg_sleep) answers
 * `query_timeout` at the limit, and the database is free at once.
 */
const actor = userActor('alice', []);
const managers = [
  defineManager({ name: 'Label', table: 'labels', fields: { name: 'string' }, chatExposed: true }),
  defineManager({ name: 'Tick', table: 'ticks', fields: { name: { type: 'string', nullable: true } }, chatExposed: true }),
];

async function setUp(database: Database, slowRows: string): Promise<App> {
  for (const statement of [
    'create table labels (id integer primary key, name text not null)',
    "insert into labels (id, name) values (1, 'steel')",
    `create view ticks as select labels.id as id, labels.name as name from labels cross join (${slowRows}) as slow`,
  ]) {
    await database.execute(sql.raw(statement).compile(database.kysely));
  }
  const app = defineApp({ managers, database, tables: 'attach' });
  await app.ready();
  return app;
}

function failure(result: ToolResult): { code: string; message: string } {
  if (!isToolError(result)) throw new Error(`expected an error result, got ${JSON.stringify(result)}`);
  return result.error;
}

async function expectStopped(app: App): Promise<void> {
  const dispatcher = createChatDispatcher({ app, settings: { queryTimeoutSeconds: 0.3 } });
  const started = performance.now();
  const result = await dispatcher.dispatch({ name: 'query', arguments: { manager: 'Tick', fields: ['name'] } }, { actor });
  const elapsed = performance.now() - started;
  expect(failure(result)).toEqual({ code: 'query_timeout', message: expect.stringContaining('ran longer than 0.3 s (queryTimeoutSeconds) and the database stopped it. Narrow the filters') });
  // The full count would take minutes; generous for a loaded machine.
  expect(elapsed).toBeLessThan(10_000);
  const after = await dispatcher.dispatch({ name: 'query', arguments: { manager: 'Label', fields: ['name'] } }, { actor });
  expect(after).toEqual({ data: [{ name: 'steel' }], total_count: 1, has_more: false });
}

describe('queryTimeoutSeconds on SQLite', () => {
  const dir = tempDirEach();

  it('kills the statement at the limit and the database answers the next query at once', async () => {
    const database = sqlite({ path: join(dir.path, 'slow.db') });
    const app = await setUp(database, 'with recursive c(x) as (select 1 union all select x + 1 from c where x < 1000000000) select x from c');
    try {
      await expectStopped(app);
      // The reader starts again for the next timed read.
      await expectStopped(app);
      const refused = await app.graphql({ actor, document: '{ labelList { items { name } } }', statementTimeoutMs: 0 });
      expect(refused.errors?.[0]).toMatchObject({ message: expect.stringContaining('statementTimeoutMs must be a positive number'), extensions: { code: 'BAD_USER_INPUT' } });
    } finally {
      await app.close();
    }
  });
});

describeWithPostgres('queryTimeoutSeconds on PostgreSQL', (server) => {
  it('has the server cancel the statement: pg_stat_activity no longer shows it', async () => {
    const database = await server.open();
    const app = await setUp(database, 'select pg_sleep(600)');
    const running = async (): Promise<number> =>
      (await server.admin("select count(*)::int as n from pg_stat_activity where state = 'active' and query like '%ticks%' and query not like '%pg_stat_activity%'")).rows[0].n as number;
    try {
      await expectStopped(app);
      expect(await running()).toBe(0);
    } finally {
      await app.close();
    }
  });
});
