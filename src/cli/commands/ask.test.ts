import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
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
    expect(stdout).toContain('5 parts where material is Steel:');
    expect(stdout).toContain('- Bolt — sku: BLT-100, price: 0.35, stock: 5,000');
  });

  it('reads dates from the moment --now gives, and refuses one that is not RFC 3339', async () => {
    const { code, stderr, stdout } = await ask(['which tasks are due tomorrow?', '--demo', '--db', ':memory:', '--now', '2027-01-19T10:00:00Z']);
    expect(code).toBe(0);
    expect(stderr).toContain('"dueDate__gte":"2027-01-20","dueDate__lt":"2027-01-21"');
    expect(stdout).toContain('Pilot batch');
    const wrong = await ask(['hi', '--demo', '--db', ':memory:', '--now', 'yesterday']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/^plumb: --now is an RFC 3339 time with its offset .* not 'yesterday'\n$/);
  });

  it('reads dates in the zone --time-zone names, and refuses an unknown one', async () => {
    // 05:00 UTC is still the evening before in Honolulu: "tomorrow" is the 19th there.
    const { code, stderr } = await ask(['which tasks are due tomorrow?', '--demo', '--db', ':memory:', '--now', '2027-01-19T05:00:00Z', '--time-zone', 'Pacific/Honolulu']);
    expect(code).toBe(0);
    expect(stderr).toContain('"dueDate__gte":"2027-01-19","dueDate__lt":"2027-01-20"');
    const wrong = await ask(['which tasks are due tomorrow?', '--demo', '--db', ':memory:', '--time-zone', 'Mars/Olympus']);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain("invalid_time_zone: Unknown time zone 'Mars/Olympus'");
  });

  it('hands the model the page context --context-file gives, and refuses a file that is not one', async () => {
    const page = join(dir, 'page.yaml');
    writeFileSync(page, 'context:\n  - { kind: order, title: Order on screen, text: Order 4411 is paid, value: "4411" }\nsupplementalContext: Refunds tab open.\n');
    const seen = join(dir, 'seen.json');
    writeFileSync(seen, JSON.stringify({ completions: [{ when: { anyMessageContains: '[order] Order on screen (4411): Order 4411 is paid' }, text: 'I see order 4411.' }, { text: 'No page.' }] }));
    const { code, stdout } = await ask(['what is this?', '--demo', '--db', ':memory:', '--as', 'alice', '--provider', `scripted:${seen}`, '--router', 'off', '--context-file', page]);
    expect(code).toBe(0);
    expect(stdout).toContain('I see order 4411.');
    const odd = join(dir, 'odd.json');
    writeFileSync(odd, JSON.stringify({ contexts: [] }));
    const refused = await ask(['what is this?', '--demo', '--db', ':memory:', '--context-file', odd]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("--context-file: unknown key 'contexts'");
    const invalid = join(dir, 'invalid.json');
    writeFileSync(invalid, JSON.stringify({ context: [{ kind: 'order', text: 'no title' }] }));
    const bad = await ask(['what is this?', '--demo', '--db', ':memory:', '--context-file', invalid]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("invalid_context: The page context is invalid at 'context.0.title'");
    const missing = await ask(['what is this?', '--demo', '--db', ':memory:', '--context-file', join(dir, 'nowhere.json')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`--context-file: cannot read '${join(dir, 'nowhere.json')}': no such file`);
  });

  it('holds a write the router planned for the person: --no rejects it, nothing is charged, and it exits 4', async () => {
    const { code, stdout, stderr } = await ask(['charge order 4411 40.00', '--demo', '--db', ':memory:', '--as', 'alice', '--no']);
    expect(code).toBe(4);
    expect(stderr).toContain('charge_card {"amount":"40.00","order_id":"4411"}');
    expect(stderr).toContain("plumb: 'charge_card' was not made: you declined it (exit 4)");
    expect(stdout).toBe('Not done: the confirmation was rejected (charge_card).\n');
  });

  it('exits 4 for a write the actor may not make, with the refusal as the answer', async () => {
    const { code, stdout, stderr } = await ask(['charge order 4411 40.00', '--demo', '--db', ':memory:']);
    expect(code).toBe(4);
    expect(stdout).toContain('only a signed-in user may change data');
    expect(stderr).toContain("plumb: 'charge_card' was not made: authentication_required (exit 4)");
  });

  it('says what it can do when it cannot read the turn and no model is configured, and exits 3', async () => {
    const { code, stdout, stderr } = await ask(['hello', '--demo', '--db', ':memory:']);
    expect(code).toBe(3);
    expect(stdout).toContain('I could not read that.');
    expect(stderr).toContain('plumb: the turn was not read (no model is configured to take it over; exit 3)');
  });

  it('sends every turn to the model with --router off, approving the held change with --yes', async () => {
    const { code, stdout, stderr } = await ask(['Add a task to check bolts', '--demo', '--db', ':memory:', '--as', 'alice', '--provider', `scripted:${script}`, '--router', 'off', '--yes']);
    expect(code).toBe(0);
    expect(stdout).toBe('Created the task.\n');
    expect(stderr).toContain('mutate');
  });

  it('rejects the held change with --no, and prints events as JSON lines with --json', async () => {
    const { code, stdout } = await ask(['Add a task', '--demo', '--db', ':memory:', '--as', 'alice', '--provider', `scripted:${script}`, '--router', 'off', '--no', '--json']);
    expect(code).toBe(4);
    const events = stdout.trim().split('\n').map((line) => JSON.parse(line) as { type: string });
    expect(events.map((event) => event.type)).toEqual(['tool_call', 'tool_result', 'tool_call', 'confirm_mutation', 'tool_result', 'text_chunk', 'done']);
  });

  it('gives the model only what the router cannot read', async () => {
    const { code, stdout } = await ask(['please think about bolts for me', '--demo', '--db', ':memory:', '--as', 'alice', '--provider', `scripted:${script}`, '--no', '--json']);
    expect(code).toBe(4);
    const events = stdout.trim().split('\n').map((line) => JSON.parse(line) as { type: string; outcome?: string });
    expect(events[0]).toMatchObject({ type: 'plan', outcome: 'unread' });
    expect(events.slice(1).map((event) => event.type)).toEqual(['tool_call', 'tool_result', 'tool_call', 'confirm_mutation', 'tool_result', 'text_chunk', 'done']);
  });

  it('starts a new thread on every run: an answer to an old question is not read as one', async () => {
    const db = join(dir, 'threads.sqlite');
    const run = (args: string[]) => ask([...args, '--demo', '--db', db, '--as', 'alice']);
    const asked = await run(['charge order 4411', '--json']);
    expect(asked.code, 'a question back is an answer').toBe(0);
    const events = asked.stdout.trim().split('\n').map((line) => JSON.parse(line) as { type: string; content?: string; thread_id?: string });
    expect(events.filter((event) => event.type === 'text_chunk').map((event) => event.content).join('')).toBe('To charge card, which amount?');
    const thread = events[0]!.thread_id!;

    const fresh = await run(['40.00', '--no']);
    expect(fresh.stderr).not.toContain('charge_card');
    expect(fresh.stdout).not.toContain('charge_card');

    const continued = await run(['40.00', '--thread', thread, '--no']);
    expect(continued.code).toBe(4);
    expect(continued.stderr).toContain('charge_card {"amount":"40.00","order_id":"4411"}');
    expect(continued.stdout).toBe('Not done: the confirmation was rejected (charge_card).\n');
  });

  it('continues the actor\'s most recent thread with --continue', async () => {
    const db = join(dir, 'continue.sqlite');
    const run = (args: string[]) => ask([...args, '--demo', '--db', db, '--as', 'alice']);
    expect((await run(['charge order 4411'])).stdout).toBe('To charge card, which amount?\n');
    const continued = await run(['40.00', '--continue', '--no']);
    expect(continued.code).toBe(4);
    expect(continued.stdout).toBe('Not done: the confirmation was rejected (charge_card).\n');
    expect((await run(['40.00', '--continue', '--thread', 'T1'])).code).toBe(2);
  });

  it('fails at once, naming the address and what to start, when a local model is not running', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    const { code, stdout, stderr } = await ask(['hello', '--demo', '--db', ':memory:', '--provider', 'ollama', '--base-url', `http://127.0.0.1:${port}`, '--router', 'off']);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).not.toContain('retrying');
    expect(stderr).toContain(`provider_connection_refused: Nothing is listening at http://127.0.0.1:${port} for the ollama provider (connection refused). Is \`ollama serve\` running?`);
  });

  it.each([
    ['a cut stream', { text: ['Alpha bravo ', 'charlie'], chunkDelayMs: 150, cutAfterChunks: 1 }],
    ['a stall', { text: ['Alpha bravo ', 'charlie'], chunkDelayMs: 5000 }],
  ])('prints a retried answer once: the failed attempt\'s text after %s is taken back', async (_name, failing) => {
    const file = join(dir, `retry-${_name.replace(/ /g, '-')}.json`);
    writeFileSync(file, JSON.stringify({ completions: [failing, { text: ['Alpha bravo ', 'charlie delta.'] }] }));
    const config = join(dir, 'retry-config.json');
    writeFileSync(config, JSON.stringify({ streamTimeoutSeconds: 0.4, retry: { backoffMs: [1], jitter: 0 } }));
    const { code, stdout, stderr } = await ask(['tell me', '--demo', '--db', ':memory:', '--config', config, '--provider', `scripted:${file}`, '--router', 'off']);
    expect(code, stderr).toBe(0);
    expect(stderr).toContain('retrying');
    expect(stdout).toBe('Alpha bravo charlie delta.\n');
  });

  it('refuses --router off without a model, and --yes with --no', async () => {
    expect((await ask(['hello', '--demo', '--db', ':memory:', '--router', 'off'])).code).toBe(2);
    expect((await ask(['hello', '--demo', '--db', ':memory:', '--router', 'sideways'])).code).toBe(2);
    expect((await ask(['hello', '--demo', '--db', ':memory:', '--yes', '--no'])).code).toBe(2);
  });
});
