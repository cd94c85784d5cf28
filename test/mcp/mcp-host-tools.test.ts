import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { userActor } from '../../src/index.js';
import { mcpHostTools, plumbToolName } from '../../src/mcp/index.js';
import { createDispatcher, isConfirmationRequired } from '../../src/tools/index.js';
import type { Dispatcher } from '../../src/tools/index.js';
import { plumb } from '../support/cli.js';
import { tempDir } from '../support/temp.js';

const alice = userActor('alice', ['admin']);

/** An external MCP server with a note store: one tool the host declares a read, one it leaves undeclared. */
function notesServer(calls: string[]): McpServer {
  const notes = new Map<string, string>([['welcome', 'Hello']]);
  const server = new McpServer({ name: 'notes', version: '1.0.0' });
  server.registerTool('readNote', { description: 'Read a note by its key.', inputSchema: { key: z.string() } }, ({ key }) => {
    calls.push(`readNote ${key}`);
    const text = notes.get(key);
    return text === undefined ? { content: [{ type: 'text', text: `no note ${key}` }], isError: true } : { content: [{ type: 'text', text }], structuredContent: { key, text } };
  });
  server.registerTool('writeNote', { description: 'Write a note.', inputSchema: { key: z.string(), text: z.string() } }, ({ key, text }) => {
    calls.push(`writeNote ${key}`);
    notes.set(key, text);
    return { content: [{ type: 'text', text: 'saved' }] };
  });
  return server;
}

describe("an external MCP server's tools as host tools", () => {
  let calls: string[];
  let server: McpServer;
  let client: Client;
  let dispatcher: Dispatcher;

  beforeEach(async () => {
    calls = [];
    server = notesServer(calls);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    client = new Client({ name: 'plumb', version: '0.1.0' });
    await client.connect(clientSide);
    const tools = await mcpHostTools({ client, prefix: 'notes_', effects: { readNote: 'read' } });
    dispatcher = createDispatcher({ tools });
  });
  afterEach(async () => {
    await client.close();
    await server.close();
  });

  it('names them in snake case under the prefix, with the effect the host declared and write for the rest', () => {
    expect(dispatcher.tools.map((tool) => [tool.name, tool.effect])).toEqual([
      ['notes_read_note', 'read'],
      ['notes_write_note', 'write'],
    ]);
    expect(plumbToolName('', 'get-File.Contents')).toBe('get_file_contents');
    expect(plumbToolName('', '9lives')).toBe('t_9lives');
  });

  it('runs a declared read at once and validates arguments against the server’s schema first', async () => {
    expect(await dispatcher.dispatch({ name: 'notes_read_note', arguments: { key: 'welcome' } }, { actor: alice })).toEqual({ key: 'welcome', text: 'Hello' });
    const invalid = await dispatcher.dispatch({ name: 'notes_read_note', arguments: { key: 7 } }, { actor: alice });
    expect(invalid).toMatchObject({ error: { code: 'invalid_arguments' } });
    expect(calls).toEqual(['readNote welcome']);
  });

  it('holds an undeclared tool for a person’s confirmation and calls the server only once approved', async () => {
    const held = await dispatcher.dispatch({ name: 'notes_write_note', arguments: { key: 'todo', text: 'Buy bolts' } }, { actor: alice });
    expect(isConfirmationRequired(held)).toBe(true);
    expect(calls).toEqual([]);
    if (!isConfirmationRequired(held)) return;
    expect(await dispatcher.confirm(held.confirmation_id, { actor: alice, confirmed: true })).toEqual({ content: 'saved' });
    expect(await dispatcher.dispatch({ name: 'notes_read_note', arguments: { key: 'todo' } }, { actor: alice })).toEqual({ key: 'todo', text: 'Buy bolts' });
    expect(calls).toEqual(['writeNote todo', 'readNote todo']);
  });

  it('answers tool_failed with the server’s own text when its tool reports an error', async () => {
    const missing = await dispatcher.dispatch({ name: 'notes_read_note', arguments: { key: 'nope' } }, { actor: alice });
    expect(missing).toEqual({ error: { code: 'tool_failed', message: "the MCP server answered an error for readNote: no note nope" } });
  });
});

describe('the mcpServers setting', () => {
  const dir = tempDir('plumb-mcp-servers-');
  afterAll(() => dir.remove());

  it('starts each server and adds its tools to every command’s host tools', async () => {
    const config = join(dir.path, 'plumb.config.json');
    const fixture = join(import.meta.dirname, 'fixtures', 'notes-server.ts');
    writeFileSync(config, JSON.stringify({ mcpServers: { notes: { command: process.execPath, args: ['--import', import.meta.resolve('tsx'), fixture], effects: { readNote: 'read' } } } }));
    const listed = await plumb('tool', '--list', '--json', '--demo', '--database', ':memory:', '--config', config);
    expect(listed.stderr).toBe('');
    const tools = JSON.parse(listed.stdout) as { name: string; effect: string }[];
    expect(tools.filter((tool) => tool.name.startsWith('notes_')).map((tool) => [tool.name, tool.effect])).toEqual([
      ['notes_read_note', 'read'],
      ['notes_write_note', 'write'],
    ]);
    const read = await plumb('tool', 'notes_read_note', '{"key":"welcome"}', '--json', '--demo', '--database', ':memory:', '--config', config);
    expect(JSON.parse(read.stdout)).toEqual({ key: 'welcome', text: 'Hello' });
    const held = await plumb('tool', 'notes_write_note', '{"key":"a","text":"b"}', '--json', '--demo', '--database', ':memory:', '--config', config, '--as', 'alice');
    expect(JSON.parse(held.stdout)).toMatchObject({ status: 'confirmation_required', tool: 'notes_write_note' });
  }, 60_000);

  it('has plumb check start each server: the tools of one that answers as a note, one that cannot start as its problem', async () => {
    const config = join(dir.path, 'check.config.json');
    const fixture = join(import.meta.dirname, 'fixtures', 'notes-server.ts');
    writeFileSync(config, JSON.stringify({ mcpServers: { notes: { command: process.execPath, args: ['--import', import.meta.resolve('tsx'), fixture] }, gone: { command: join(dir.path, 'no-such-program') } } }));
    const run = await plumb('check', '--demo', '--database', ':memory:', '--config', config, '--json');
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout) as { problems: { code: string; message: string }[]; notes: string[] };
    expect(report.problems).toEqual([{ code: 'mcp_server_unavailable', message: expect.stringMatching(/^The MCP server 'gone' \(mcpServers\.gone\) could not be started/) }]);
    expect(report.notes).toContain('mcpServers.notes: 2 tools (notes_read_note, notes_write_note).');
  }, 60_000);

  it('names the server that cannot start: mcp_server_unavailable', async () => {
    const config = join(dir.path, 'broken.config.json');
    writeFileSync(config, JSON.stringify({ mcpServers: { gone: { command: join(dir.path, 'no-such-program') } } }));
    const run = await plumb('tool', '--list', '--demo', '--database', ':memory:', '--config', config);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^plumb: mcp_server_unavailable: The MCP server 'gone' \(mcpServers\.gone\) could not be started/);
  }, 30_000);
});
