import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWithPostgres } from '../../src/data/testing/postgres.js';
import { plumb } from '../support/cli.js';
import { startServe } from '../support/serve-process.js';
import type { ServeProcess } from '../support/serve-process.js';
import { tempDir } from '../support/temp.js';

const example = join(import.meta.dirname, '..', '..', 'examples', 'helpdesk');
const config = join(example, 'plumb.config.ts');

/**
 * The helpdesk example end to end on a real PostgreSQL server: its own schema loaded as it is,
 * the CLI and HTTP as agents and a customer who see different rows, a confirmed write.
 */
describeWithPostgres('examples/helpdesk', (server) => {
  const dir = tempDir('plumb-helpdesk-');
  const saved = { url: process.env.HELPDESK_DATABASE_URL, store: process.env.HELPDESK_STORE };
  let served: ServeProcess | undefined;

  const schema = `helpdesk_${process.pid}_${Date.now().toString(36)}`;
  const admin = new pg.Pool({ connectionString: server.url, max: 1 });

  beforeAll(async () => {
    await admin.query(`create schema "${schema}"`);
    await admin.query(`begin; set local search_path to "${schema}"; ${readFileSync(join(example, 'schema.sql'), 'utf8')}; commit;`);
    const url = new URL(server.url);
    url.searchParams.set('options', `-c search_path=${schema}`);
    process.env.HELPDESK_DATABASE_URL = url.toString();
    process.env.HELPDESK_STORE = join(dir.path, 'chat.sqlite');
  });
  afterAll(async () => {
    await admin.query(`drop schema if exists "${schema}" cascade`);
    await admin.end();
    if (served !== undefined && served.child.exitCode === null) served.child.kill('SIGKILL');
    for (const [name, value] of [['HELPDESK_DATABASE_URL', saved.url], ['HELPDESK_STORE', saved.store]] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    dir.remove();
  });

  const ask = async (text: string, as: string, ...flags: string[]) => plumb('ask', text, '--config', config, '--as', as, ...flags);

  it('checks the attached tables and finds no problem', async () => {
    const checked = await plumb('check', '--config', config);
    expect(checked.stdout).toContain('no problems');
    expect(checked.code).toBe(0);
  });

  it('answers with no model from the rows each person may see', async () => {
    expect((await ask('which tickets are open?', 'maya')).stdout).toMatch(/^2 tickets where status is open:\n- 1001 — .*\n- 1002 — /);
    expect((await ask('which tickets are open?', 'omar')).stdout).toMatch(/^1 ticket where status is open:\n- 1005 — subject: Laptop does not charge/);
    expect((await ask('which tickets are open?', 'lena')).stdout).toMatch(/^1 ticket where status is open:\n- 1001 — subject: Charged twice for November/);
    expect((await ask('which cases are closed?', 'maya')).stdout).toMatch(/^1 ticket where status is solved:\n- 1004 — /);
    const notes = await plumb('graphql', '{ commentList { items { body internal } } }', '--config', config, '--as', 'lena');
    expect(JSON.parse(notes.stdout).data.commentList.items.map((item: { internal: boolean }) => item.internal)).toEqual([false, false]);
  });

  it('assigns a ticket once confirmed, as the person who asked, and refuses what they may not see', async () => {
    const rejected = await ask('assign ticket 1002 to "ines"', 'maya', '--no');
    expect(rejected.stdout).toContain('Not done: the confirmation was rejected (assign_ticket).');
    const assigned = await ask('assign ticket 1002 to "ines"', 'maya', '--yes');
    expect(assigned.stdout).toContain('Done: ticket 1002.');
    expect(assigned.stdout).toContain('login: ines');
    expect((await ask('assign ticket 1005 to "ines"', 'maya', '--yes')).stdout).toContain('No ticket 1005 that you can see.');
    expect((await ask('assign ticket 1002 to "omar"', 'maya', '--yes')).stdout).toContain('omar is not in Billing, the team of ticket 1002.');
    const ticket = await plumb('graphql', '{ ticket(id: 1002) { assignee { login } } }', '--config', config, '--as', 'maya');
    expect(JSON.parse(ticket.stdout)).toEqual({ data: { ticket: { assignee: { login: 'ines' } } } });
  });

  it('serves the same rows over HTTP to API clients by their bearer tokens', async () => {
    served = await startServe(['--config', config, '--port', '0'], (output) => output.includes('3. '));
    const chat = async (text: string, token: string) => {
      const response = await fetch(`${served!.url}/chat/`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ text }) });
      return { status: response.status, body: (await response.json()) as { answer: string } };
    };
    expect((await chat('how many urgent tickets are there?', 'omar-token')).body.answer).toBe('1 ticket (count of tickets where priority is urgent).');
    expect((await chat('how many tickets are there?', 'maya-token')).body.answer).toBe('3 tickets (count of tickets).');
    expect((await chat('how many tickets are there?', 'lena-token')).body.answer).toBe('2 tickets (count of tickets).');
    expect((await chat('how many tickets are there?', 'wrong')).status).toBe(401);
  });
});
