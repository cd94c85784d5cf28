import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../index.js';

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

async function ask(args: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(['ask', ...args], { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text) });
  return { code, stdout, stderr };
}

describe('plumb ask', () => {
  it('runs one turn over the demo, approving the held change with --yes', async () => {
    const { code, stdout, stderr } = await ask(['Add a task to check bolts', '--demo', '--db', ':memory:', '--as', 'alice', '--provider', `scripted:${script}`, '--yes']);
    expect(code).toBe(0);
    expect(stdout).toBe('Created the task.\n');
    expect(stderr).toContain('mutate');
  });

  it('rejects the held change with --no, and prints events as JSON lines with --json', async () => {
    const { code, stdout } = await ask(['Add a task', '--demo', '--db', ':memory:', '--as', 'alice', '--provider', `scripted:${script}`, '--no', '--json']);
    expect(code).toBe(0);
    const events = stdout.trim().split('\n').map((line) => JSON.parse(line) as { type: string });
    expect(events.map((event) => event.type)).toEqual(['tool_call', 'tool_result', 'tool_call', 'confirm_mutation', 'tool_result', 'text_chunk', 'done']);
  });

  it('fails with the turn code when no provider is configured', async () => {
    const { code, stderr } = await ask(['hello', '--demo', '--db', ':memory:']);
    expect(code).toBe(1);
    expect(stderr).toContain('no_provider');
  });

  it('refuses --yes with --no', async () => {
    const { code } = await ask(['hello', '--demo', '--db', ':memory:', '--yes', '--no']);
    expect(code).toBe(2);
  });
});
