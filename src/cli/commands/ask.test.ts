import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plumb } from '../../../test/support/cli.js';

let dir: string;
let script: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'plumb-ask-'));
  script = join(dir, 'script.json');
  writeFileSync(
    script,
    JSON.stringify({
      completions: [
        { toolCalls: [{ name: 'search_managers', arguments: { query: 'task' } }] },
        { toolCalls: [{ name: 'mutate', arguments: { mutation: 'createTask', input: { title: 'Check bolts', project: '1' } } }] },
        { when: { toolResultContains: 'user_rejected' }, text: 'Nothing changed.' },
        { text: 'Created the task.' },
      ],
    }),
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ask = (args: string[]) => plumb('ask', ...args);

describe('plumb ask', () => {
  it('answers a data question with no model: the router reads it and the answer is written from the rows', async () => {
    const { code, stdout, stderr } = await ask(['which parts are made of steel?', '--demo', '--db', ':memory:']);
    expect(code).toBe(0);
    expect(stderr).toContain('query_part {"fields":["id","name","sku","unitPrice","stock"],"filters":{"material__name":"Steel"}}');
    expect(stdout).toContain('5 parts where material name = Steel:');
    expect(stdout).toContain('- id: 1, name: Bolt, sku: BLT-100, unitPrice: 0.35, stock: 5000');
  });

  it('holds a write the router planned for the person: --no rejects it and nothing is charged', async () => {
    const { code, stdout, stderr } = await ask(['charge order 4411 40.00', '--demo', '--db', ':memory:', '--as', 'alice', '--no']);
    expect(code).toBe(0);
    expect(stderr).toContain('charge_card {"amount":"40.00","order_id":"4411"}');
    expect(stdout).toBe('Not done: the confirmation was rejected (charge_card).\n');
  });

  it('says what it can do when it cannot read the turn and no model is configured', async () => {
    const { code, stdout } = await ask(['hello', '--demo', '--db', ':memory:']);
    expect(code).toBe(0);
    expect(stdout).toContain('I could not read that.');
  });

  it('sends every turn to the model with --router off, approving the held change with --yes', async () => {
    const { code, stdout, stderr } = await ask(['Add a task to check bolts', '--demo', '--db', ':memory:', '--as', 'alice', '--provider', `scripted:${script}`, '--router', 'off', '--yes']);
    expect(code).toBe(0);
    expect(stdout).toBe('Created the task.\n');
    expect(stderr).toContain('mutate');
  });

  it('rejects the held change with --no, and prints events as JSON lines with --json', async () => {
    const { code, stdout } = await ask(['Add a task', '--demo', '--db', ':memory:', '--as', 'alice', '--provider', `scripted:${script}`, '--router', 'off', '--no', '--json']);
    expect(code).toBe(0);
    const events = stdout.trim().split('\n').map((line) => JSON.parse(line) as { type: string });
    expect(events.map((event) => event.type)).toEqual(['tool_call', 'tool_result', 'tool_call', 'confirm_mutation', 'tool_result', 'text_chunk', 'done']);
  });

  it('gives the model only what the router cannot read', async () => {
    const { code, stdout } = await ask(['please think about bolts for me', '--demo', '--db', ':memory:', '--as', 'alice', '--provider', `scripted:${script}`, '--no', '--json']);
    expect(code).toBe(0);
    const events = stdout.trim().split('\n').map((line) => JSON.parse(line) as { type: string; outcome?: string });
    expect(events[0]).toMatchObject({ type: 'plan', outcome: 'unread' });
    expect(events.slice(1).map((event) => event.type)).toEqual(['tool_call', 'tool_result', 'tool_call', 'confirm_mutation', 'tool_result', 'text_chunk', 'done']);
  });

  it('refuses --router off without a model, and --yes with --no', async () => {
    expect((await ask(['hello', '--demo', '--db', ':memory:', '--router', 'off'])).code).toBe(2);
    expect((await ask(['hello', '--demo', '--db', ':memory:', '--router', 'sideways'])).code).toBe(2);
    expect((await ask(['hello', '--demo', '--db', ':memory:', '--yes', '--no'])).code).toBe(2);
  });
});
