import { describe, expect, it } from 'vitest';
import { plumb } from './support/cli.js';

const commands = ['graphql', 'serve', 'check', 'cleanup', 'route', 'tool', 'ask', 'init', 'introspect', 'migrate', 'eval', 'mcp'];

describe('plumb --help', () => {
  it('lists every command with its one-line summary', async () => {
    const run = await plumb('--help');
    expect(run.code).toBe(0);
    for (const command of commands) expect(run.stdout, command).toMatch(new RegExp(`\\n  ${command}\\s+\\S`));
  });

  it("gives a command's whole help with --help and with help <command>", async () => {
    for (const args of [['mcp', '--help'], ['help', 'mcp']]) {
      const run = await plumb(...args);
      expect(run.code, args.join(' ')).toBe(0);
      expect(run.stdout).toContain('Usage: plumb mcp [options]');
      expect(run.stdout).toContain('--http');
      expect(run.stdout).toContain('--confirm-with <how>');
    }
  });

  it('refuses an unknown command with exit 2 and one line', async () => {
    const run = await plumb('frobnicate');
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^plumb: unknown command 'frobnicate'\n$/);
  });

  it('refuses --port without --http for plumb mcp', async () => {
    const run = await plumb('mcp', '--port', '9000', '--demo');
    expect([run.code, run.stderr]).toEqual([2, 'plumb: --port and --host go with --http\n']);
  });
});
