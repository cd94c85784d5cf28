import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plumb } from '../../../test/support/cli.js';

let dir: string;
let db: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'plumb-cli-tool-'));
  db = join(dir, 'demo.sqlite');
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});


describe('plumb tool', () => {
  it('lists the discovery tools and the demo host tools with their JSON Schemas', async () => {
    const { code, stdout } = await plumb('tool', '--list', '--demo', '--db', db, '--json');
    expect(code).toBe(0);
    const tools = JSON.parse(stdout) as { name: string; effect: string; parameters: { additionalProperties: boolean } }[];
    expect(tools.map((tool) => tool.name).slice(0, 5)).toEqual(['search_managers', 'get_manager_schema', 'find_path', 'query', 'mutate']);
    expect(tools.find((tool) => tool.name === 'charge_card')).toMatchObject({ effect: 'irreversible', parameters: { additionalProperties: false } });
  });

  it('lists one query tool per exposed manager under --strategy direct', async () => {
    const { stdout } = await plumb('tool', '--list', '--demo', '--db', db, '--json', '--strategy', 'direct');
    expect((JSON.parse(stdout) as { name: string }[]).map((tool) => tool.name)).toContain('query_order_line');
  });

  it('runs one call and prints its result', async () => {
    const { code, stdout } = await plumb('tool', 'query', '{"manager":"Material","fields":["name"],"limit":2}', '--demo', '--db', db, '--json');
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ data: [{}, {}], has_more: true });
  });

  it('exits 1 with the error result for an error', async () => {
    const { code, stdout, stderr } = await plumb('tool', 'query', '{"manager":"Nope","fields":["name"]}', '--demo', '--db', db, '--json');
    expect(code).toBe(1);
    expect(JSON.parse(stdout)).toMatchObject({ error: { code: 'not_exposed' } });
    expect(stderr).toContain('not_exposed');
  });

  it('exits 2 for malformed JSON arguments or no mode', async () => {
    expect((await plumb('tool', 'query', '{nope', '--demo', '--db', db)).code).toBe(2);
    expect((await plumb('tool', '--demo', '--db', db)).code).toBe(2);
  });

  it('holds a write in one run and executes it on --confirm in another', async () => {
    const held = await plumb('tool', 'create_project', '{"name":"From the CLI"}', '--demo', '--db', db, '--as', 'alice', '--json');
    expect(held.code).toBe(0);
    const { confirmation_id: id } = JSON.parse(held.stdout) as { confirmation_id: string };
    const wrongActor = await plumb('tool', '--confirm', id, '--demo', '--db', db, '--as', 'bob', '--json');
    expect(wrongActor.code).toBe(1);
    const done = await plumb('tool', '--confirm', id, '--demo', '--db', db, '--as', 'alice', '--json');
    expect(done.code).toBe(0);
    expect(JSON.parse(done.stdout)).toMatchObject({ name: 'From the CLI' });
    expect((await plumb('tool', '--confirm', id, '--demo', '--db', db, '--as', 'alice', '--json')).code).toBe(1);
  });

  it('records a rejection with --reject', async () => {
    const held = await plumb('tool', 'add_task', '{"project_id":"1","title":"Never"}', '--demo', '--db', db, '--as', 'alice', '--json');
    const { confirmation_id: id } = JSON.parse(held.stdout) as { confirmation_id: string };
    const rejected = await plumb('tool', '--confirm', id, '--reject', '--demo', '--db', db, '--as', 'alice', '--json');
    expect(JSON.parse(rejected.stdout)).toEqual({ status: 'cancelled', reason: 'user_rejected' });
  });
});
