import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userActor } from '../../src/index.js';
import { createDemoApp, createDemoHostTools, demoToolSettings } from '../../src/demo/index.js';
import { bearerTokens, createMcpHttpHandler, createMcpToolServer, listenMcpHttp } from '../../src/mcp/index.js';
import { createChatDispatcher } from '../../src/tools/index.js';
import { tempDir } from '../support/temp.js';

const root = join(import.meta.dirname, '..', '..');
const main = join(root, 'src', 'cli', 'main.ts');

function parsed(result: Awaited<ReturnType<Client['callTool']>>): Record<string, unknown> {
  return JSON.parse((result.content as { text: string }[])[0]!.text) as Record<string, unknown>;
}

describe('plumb mcp over stdio, spawned as a client would', () => {
  it('serves the demo tools as the --as actor and ends when the client closes', async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: ['--import', 'tsx', main, 'mcp', '--demo', '--database', ':memory:', '--as', 'bob'], cwd: root, stderr: 'pipe' });
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(transport);
    try {
      expect(client.getServerVersion()).toMatchObject({ name: 'plumb', version: '0.1.0' });
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names).toEqual(expect.arrayContaining(['search_managers', 'query', 'get_order', 'add_task', 'confirm']));
      expect(parsed(await client.callTool({ name: 'get_order', arguments: { order_id: '4411' } }))).toMatchObject({ order_id: '4411' });
      const held = parsed(await client.callTool({ name: 'add_task', arguments: { project_id: '1', title: 'x' } }));
      expect(held).toMatchObject({ status: 'confirmation_required', tool: 'add_task' });
      expect(held.message).toContain('as Bob (sales, read-only)?');
    } finally {
      await client.close();
    }
  }, 60_000);
});

describe('Streamable HTTP', () => {
  let app: Awaited<ReturnType<typeof createDemoApp>>;
  let listening: Awaited<ReturnType<typeof listenMcpHttp>>;
  const alice = userActor('alice', ['admin']);
  const bob = userActor('bob', ['sales']);

  beforeAll(async () => {
    app = await createDemoApp();
    const dispatcher = createChatDispatcher({ app, settings: demoToolSettings, hostTools: createDemoHostTools(app) });
    const handler = createMcpHttpHandler({
      path: '/mcp',
      authenticate: bearerTokens(new Map([['alice-token-0123456789', alice], ['bob-token-0123456789', bob]])),
      serverFor: (actor) => createMcpToolServer({ dispatcher, actor }),
    });
    listening = await listenMcpHttp(handler, { port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await listening.close();
    await app.close();
  });

  async function connect(token: string | undefined, capabilities: Record<string, unknown> = {}): Promise<Client> {
    const transport = new StreamableHTTPClientTransport(new URL(`${listening.url}/mcp`), { requestInit: { headers: token === undefined ? {} : { authorization: `Bearer ${token}` } } });
    const client = new Client({ name: 'test', version: '1.0.0' }, { capabilities });
    await client.connect(transport);
    return client;
  }

  it("runs every call as the bearer token's actor; no token is anonymous", async () => {
    const asBob = await connect('bob-token-0123456789');
    const asNobody = await connect(undefined);
    try {
      expect(parsed(await asBob.callTool({ name: 'get_order', arguments: { order_id: '4411' } }))).toMatchObject({ order_id: '4411' });
      expect(parsed(await asNobody.callTool({ name: 'get_order', arguments: { order_id: '4411' } }))).toMatchObject({ error: { code: 'invalid_arguments' } });
    } finally {
      await asBob.close();
      await asNobody.close();
    }
  });

  it('refuses an unknown token with 401 invalid_token, and a session used with another actor’s token with 403', async () => {
    await expect(connect('not-a-known-token-at-all')).rejects.toThrow(/invalid_token|401|names no actor/);
    const asBob = await connect('bob-token-0123456789');
    try {
      const sessionId = (asBob.transport as StreamableHTTPClientTransport).sessionId!;
      const stolen = await fetch(`${listening.url}/mcp`, {
        method: 'POST',
        headers: { authorization: 'Bearer alice-token-0123456789', 'mcp-session-id': sessionId, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
      });
      expect(stolen.status).toBe(403);
      expect(await stolen.json()).toMatchObject({ error: { data: { code: 'mcp_session_forbidden' } } });
      const unknown = await fetch(`${listening.url}/mcp`, { method: 'POST', headers: { 'mcp-session-id': 'nope', 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' });
      expect(unknown.status).toBe(404);
    } finally {
      await asBob.close();
    }
  });

  it('asks for a confirmation by elicitation on the call’s own stream and runs the write once', async () => {
    const client = await connect('alice-token-0123456789', { elicitation: {} });
    const asked: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request.params.message);
      return { action: 'accept', content: { confirm: true } };
    });
    try {
      const created = parsed(await client.callTool({ name: 'create_project', arguments: { name: 'Over HTTP' } }));
      expect(created).toMatchObject({ name: 'Over HTTP' });
      expect(asked).toEqual([expect.stringMatching(/^Run create_project with name Over HTTP, as alice\?/)]);
    } finally {
      await client.close();
    }
  });
});

describe('plumb mcp --http', () => {
  const dir = tempDir('plumb-mcp-http-');
  let child: ChildProcessWithoutNullStreams | undefined;
  afterAll(() => {
    if (child !== undefined && child.exitCode === null) child.kill('SIGTERM');
    dir.remove();
  });

  it('listens with the tokens of mcp.tokens, spends the rateLimit budget per call, and stops on SIGTERM', async () => {
    const config = join(dir.path, 'plumb.config.json');
    writeFileSync(config, JSON.stringify({ mcp: { tokens: { alice: 'alice-token-0123456789' } }, rateLimit: { requests: 2 } }));
    child = spawn(process.execPath, ['--import', 'tsx', main, 'mcp', '--http', '--port', '0', '--demo', '--database', ':memory:', '--config', config], { cwd: root });
    let output = '';
    const url = await new Promise<string>((resolve, reject) => {
      child!.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const match = /listening on (http:\/\/\S+)/.exec(output);
        if (match?.[1] !== undefined) resolve(match[1]);
      });
      child!.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child!.once('exit', (code) => reject(new Error(`plumb mcp exited (${code}): ${output}`)));
    });
    expect(url).toMatch(/\/mcp$/);
    const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: 'Bearer alice-token-0123456789' } } });
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(transport);
    const held = parsed(await client.callTool({ name: 'add_task', arguments: { project_id: '1', title: 'From HTTP' } }));
    expect(held).toMatchObject({ status: 'confirmation_required', tool: 'add_task' });
    expect(parsed(await client.callTool({ name: 'confirm', arguments: { confirmation_id: held.confirmation_id, confirmed: true } }))).toMatchObject({ title: 'From HTTP' });
    // rateLimit.requests: 2 — each call took one, as a chat turn does.
    expect(parsed(await client.callTool({ name: 'get_order', arguments: { order_id: '4411' } }))).toMatchObject({ error: { code: 'rate_limited' } });
    // A token nobody issued is refused, not served as anonymous (the demo's authenticate knows none).
    const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1.0.0' } } };
    const stranger = await fetch(url, { method: 'POST', headers: { authorization: 'Bearer a-token-nobody-issued-0123', 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify(initialize) });
    expect(stranger.status).toBe(401);
    expect(stranger.headers.get('www-authenticate')).toBe('Bearer');
    expect(await stranger.json()).toMatchObject({ error: { data: { code: 'invalid_token' } } });
    await client.close();
    const exited = new Promise<number | null>((resolve) => child!.once('exit', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 60_000);
});
