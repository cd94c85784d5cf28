import { join } from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { userActor } from '../core/index.js';
import type { Database } from './index.js';
import { defineApp, defineManager, sqlite } from './index.js';
import { postgres } from './postgres-database.js';
import { describeWithPostgres } from './testing/postgres.js';
import { tempDirEach } from '../../test/support/temp.js';

/**
 * An app attached to tables that exist already, as a host's own migrations made them: other
 * names and types than Plumb would choose, a string key, a join table with its own column names.
 * Plumb reads and writes them as they are and never creates or alters a table.
 */
const agent = userActor('agent-7', ['agent']);

const Team = defineManager({
  name: 'Team',
  table: 'teams',
  fields: { id: { type: 'integer', column: 'team_id' }, name: { type: 'string', column: 'team_name' } },
  chatExposed: true,
});
const Ticket = defineManager({
  name: 'Ticket',
  table: 'tickets',
  fields: {
    id: { type: 'string', column: 'code' },
    subject: 'string',
    openedAt: { type: 'datetime', column: 'opened_at' },
    urgent: 'boolean',
    estimate: { type: 'float', nullable: true },
  },
  relations: {
    team: { kind: 'one', target: 'Team', column: 'team_ref', reverse: 'tickets' },
    labels: { kind: 'manyToMany', target: 'Label', through: 'ticket_labels', sourceColumn: 'ticket_code', targetColumn: 'label_ref', reverse: 'tickets' },
  },
  chatExposed: true,
});
const Label = defineManager({ name: 'Label', table: 'labels', fields: { name: 'string' }, chatExposed: true });
const managers = [Team, Ticket, Label];

interface Dialect {
  readonly serial: string;
  readonly text: string;
  readonly bool: string;
  readonly time: string;
  readonly float: string;
}

async function createHostSchema(database: Database, types: Dialect): Promise<void> {
  const statements = [
    `CREATE TABLE teams (team_id ${types.serial}, team_name VARCHAR(80) NOT NULL)`,
    `CREATE TABLE labels (id ${types.serial}, name ${types.text} NOT NULL)`,
    `CREATE TABLE tickets (code VARCHAR(20) PRIMARY KEY, subject ${types.text} NOT NULL, opened_at ${types.time} NOT NULL, urgent ${types.bool} NOT NULL, estimate ${types.float}, team_ref INTEGER NOT NULL REFERENCES teams (team_id), internal_note ${types.text})`,
    `CREATE TABLE ticket_labels (ticket_code VARCHAR(20) NOT NULL REFERENCES tickets (code), label_ref INTEGER NOT NULL REFERENCES labels (id), PRIMARY KEY (ticket_code, label_ref))`,
    `INSERT INTO teams (team_id, team_name) VALUES (1, 'Billing'), (2, 'Hardware')`,
    `INSERT INTO labels (id, name) VALUES (1, 'refund'), (2, 'vip')`,
    `INSERT INTO tickets (code, subject, opened_at, urgent, estimate, team_ref) VALUES ('HD-1', 'Refund not received', '2026-11-02T09:00:00.000Z', ${types.bool === 'BOOLEAN' ? 'true' : '1'}, 1.5, 1), ('HD-2', 'Printer on fire', '2026-11-03T10:30:00.000Z', ${types.bool === 'BOOLEAN' ? 'false' : '0'}, NULL, 2)`,
    `INSERT INTO ticket_labels (ticket_code, label_ref) VALUES ('HD-1', 1), ('HD-1', 2)`,
  ];
  for (const statement of statements) await database.execute(sql.raw(statement).compile(database.kysely));
}

/** The tables of the database's own schema (on PostgreSQL, other tests' schemas are not ours). */
async function tableNames(database: Database): Promise<string[]> {
  const schema = (database as { schema?: string }).schema;
  const tables = await database.kysely.introspection.getTables();
  return tables.filter((table) => schema === undefined || table.schema === schema).map((table) => table.name).sort();
}

function describeAttach(label: string, types: Dialect, open: () => Promise<Database>): void {
  describe(`attach mode: ${label}`, () => {
    it('reads, filters, follows relations and writes tables it did not create, by their own names and keys', async () => {
      const database = await open();
      await createHostSchema(database, types);
      const app = defineApp({ managers, database, tables: 'attach' });
      await app.ready();
      const result = await app.graphql({
        actor: agent,
        document: '{ ticket(id: "HD-1") { id subject urgent openedAt team { name } labels { name } } teamList(filter: { tickets__urgent: true }) { items { name tickets { id } } } }',
      });
      expect(result.errors).toBeUndefined();
      expect(result.data).toEqual({
        ticket: { id: 'HD-1', subject: 'Refund not received', urgent: true, openedAt: '2026-11-02T09:00:00.000Z', team: { name: 'Billing' }, labels: [{ name: 'refund' }, { name: 'vip' }] },
        teamList: { items: [{ name: 'Billing', tickets: [{ id: 'HD-1' }] }] },
      });
      const created = await app.graphql({ actor: agent, document: 'mutation { createTicket(input: { id: "HD-3", subject: "Keyboard", openedAt: "2026-11-04T08:00:00Z", urgent: false, team: 2, labels: [2] }) { id team { name } labels { name } } }' });
      expect(created.errors).toBeUndefined();
      expect(created.data).toEqual({ createTicket: { id: 'HD-3', team: { name: 'Hardware' }, labels: [{ name: 'vip' }] } });
      const unknown = await app.graphql({ actor: agent, document: '{ ticket(id: "HD-404") { id } }' });
      expect(unknown.data).toEqual({ ticket: null });
      expect(await tableNames(database)).toEqual(['labels', 'teams', 'ticket_labels', 'tickets']);
      await app.close();
    });

    it('names every mapped table and column that is missing or does not fit, and changes nothing', async () => {
      const database = await open();
      await createHostSchema(database, types);
      const Wrong = defineManager({
        name: 'Ticket',
        table: 'tickets',
        fields: { id: { type: 'string', column: 'code' }, subject: 'integer', openedAt: { type: 'datetime', column: 'opened_at' }, priority: 'string' },
        relations: { team: { kind: 'one', target: 'Team', column: 'team_ref' } },
      });
      const Missing = defineManager({ name: 'Customer', table: 'customers', fields: { email: 'string' } });
      const app = defineApp({ managers: [Team, Wrong, Missing], database, tables: 'attach' });
      const error = (await app.ready().then(() => undefined, (reason: unknown) => reason)) as { code: string; message: string };
      expect(error.code).toBe('schema_mismatch');
      expect(error.message).toContain("Table 'tickets' column 'subject' has type");
      expect(error.message).toContain("Table 'tickets' has no column 'priority' for Ticket.priority (string).");
      expect(error.message).toContain("Table 'tickets' column 'urgent' is required but no field of Ticket fills it.");
      expect(error.message).toContain("Table 'customers' (for Customer) does not exist.");
      expect(await tableNames(database)).toEqual(['labels', 'teams', 'ticket_labels', 'tickets']);
      await app.close();
    });
  });
}

const dir = tempDirEach('plumb-attach-');
describeAttach('SQLite', { serial: 'INTEGER PRIMARY KEY', text: 'TEXT', bool: 'BOOLEAN', time: 'DATETIME', float: 'REAL' }, () => Promise.resolve(sqlite({ path: join(dir.path, 'host.db') })));

describeWithPostgres('attach mode on PostgreSQL', (server) => {
  describeAttach('PostgreSQL', { serial: 'INTEGER PRIMARY KEY', text: 'TEXT', bool: 'BOOLEAN', time: 'TIMESTAMPTZ', float: 'DOUBLE PRECISION' }, async () => postgres({ url: server.url, schema: await server.freshSchema() }));

  it('keeps a uuid key as a string and answers a key that is no UUID as invalid input', async () => {
    const database = postgres({ url: server.url, schema: await server.freshSchema() });
    try {
      await database.execute(sql`create table notes (id uuid primary key default gen_random_uuid(), body text not null)`.compile(database.kysely));
      const Note = defineManager({ name: 'Note', table: 'notes', fields: { id: { type: 'string' }, body: 'string' } });
      const app = defineApp({ managers: [Note], database, tables: 'attach' });
      const created = await app.graphql({ actor: agent, document: 'mutation { createNote(input: { body: "hello" }) { id body } }' });
      const id = (created.data as { createNote: { id: string } }).createNote.id;
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      expect((await app.graphql({ actor: agent, document: `{ note(id: "${id}") { body } }` })).data).toEqual({ note: { body: 'hello' } });
      const bad = await app.graphql({ actor: agent, document: '{ note(id: "not-a-uuid") { body } }' });
      expect(bad.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    } finally {
      await database.close();
    }
  });
});
