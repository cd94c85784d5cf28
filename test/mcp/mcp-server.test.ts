import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anonymous, userActor } from '../../src/index.js';
import type { Actor } from '../../src/index.js';
import { createDemoApp, createDemoHostTools, demoToolSettings } from '../../src/demo/index.js';
import { createMcpToolServer } from '../../src/mcp/index.js';
import { createChatDispatcher } from '../../src/tools/index.js';
import type { Dispatcher } from '../../src/tools/index.js';

const alice = userActor('alice', ['admin']);
const bob = userActor('bob', ['sales']);

type App = Awaited<ReturnType<typeof createDemoApp>>;
let app: App;
let dispatcher: Dispatcher;

beforeAll(async () => {
  app = await createDemoApp();
  dispatcher = createChatDispatcher({ app, settings: demoToolSettings, hostTools: createDemoHostTools(app) });
});
afterAll(async () => {
  await app.close();
});

/** A client of the SDK connected in process to a Plumb MCP server acting as `actor`. */
async function connect(actor: Actor, elicitation?: (message: string) => { action: 'accept' | 'decline' | 'cancel'; content?: Record<string, unknown> }): Promise<Client & AsyncDisposable> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const server = createMcpToolServer({ dispatcher, actor, version: '0.1.0' });
  await server.connect(serverSide);
  const client = new Client({ name: 'test', version: '1.0.0' }, elicitation === undefined ? {} : { capabilities: { elicitation: {} } });
  if (elicitation !== undefined) client.setRequestHandler(ElicitRequestSchema, (request) => elicitation(request.params.message));
  await client.connect(clientSide);
  return Object.assign(client, {
    [Symbol.asyncDispose]: async () => {
      await client.close();
      await server.close();
    },
  });
}

function parsed(result: Awaited<ReturnType<Client['callTool']>>): Record<string, unknown> {
  const content = result.content as { type: string; text: string }[];
  return JSON.parse(content[0]!.text) as Record<string, unknown>;
}

describe('plumb over MCP, with the SDK client in process', () => {
  it("lists the dispatcher's tools with their schemas and effect hints, and the confirm tool for a client without elicitation", async () => {
    await using client = await connect(bob);
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual([...dispatcher.definitions().map((definition) => definition.name), 'confirm']);
    const getOrder = tools.find((tool) => tool.name === 'get_order')!;
    expect(getOrder.inputSchema).toMatchObject({ type: 'object', properties: { order_id: { type: 'string' } } });
    expect(getOrder.annotations).toMatchObject({ readOnlyHint: true });
    expect(tools.find((tool) => tool.name === 'charge_card')!.annotations).toMatchObject({ readOnlyHint: false });
  });

  it('runs a read as the actor, with the same results and error codes as chat', async () => {
    await using client = await connect(bob);
    const order = await client.callTool({ name: 'get_order', arguments: { order_id: '4411' } });
    expect(order.isError).toBeUndefined();
    expect(parsed(order)).toMatchObject({ order_id: '4411', status: 'pending' });
    expect(order.structuredContent).toMatchObject({ order_id: '4411' });
    const invalid = await client.callTool({ name: 'get_order', arguments: { order_id: '#4411' } });
    expect(invalid.isError).toBe(true);
    expect(parsed(invalid)).toMatchObject({ error: { code: 'invalid_arguments' } });
    const unknown = await client.callTool({ name: 'drop_tables', arguments: {} });
    expect(parsed(unknown)).toMatchObject({ error: { code: 'unknown_tool' } });
  });

  it('hides what the actor may not see: anonymous gets no order, and may not write', async () => {
    await using client = await connect(anonymous);
    expect(parsed(await client.callTool({ name: 'get_order', arguments: { order_id: '4411' } }))).toMatchObject({ error: { code: 'invalid_arguments' } });
    expect(parsed(await client.callTool({ name: 'add_task', arguments: { project_id: '1', title: 'Sneak' } }))).toMatchObject({ error: { code: 'authentication_required' } });
  });

  it('holds a write with the sentence to confirm; the confirm tool runs it once, for the same actor only', async () => {
    await using client = await connect(alice);
    const held = parsed(await client.callTool({ name: 'add_task', arguments: { project_id: '1', title: 'Check bolts' } }));
    expect(held).toMatchObject({ status: 'confirmation_required', tool: 'add_task', arguments: { project_id: '1', title: 'Check bolts' } });
    expect(held.message).toMatch(/^Run add_task with project id 1, title Check bolts, as alice\?/);
    const id = held.confirmation_id as string;

    await using other = await connect(bob);
    expect(parsed(await other.callTool({ name: 'confirm', arguments: { confirmation_id: id, confirmed: true } }))).toMatchObject({ error: { code: 'confirmation_invalid' } });
    expect(parsed(await client.callTool({ name: 'confirm', arguments: { confirmation_id: id, confirmed: true, arguments: { project_id: '1', title: 'Other' } } }))).toMatchObject({ error: { code: 'confirmation_invalid' } });

    const done = parsed(await client.callTool({ name: 'confirm', arguments: { confirmation_id: id, confirmed: true } }));
    expect(done).toMatchObject({ title: 'Check bolts' });
    expect(parsed(await client.callTool({ name: 'confirm', arguments: { confirmation_id: id, confirmed: true } }))).toMatchObject({ error: { code: 'confirmation_invalid' } });
  });

  it('rejects a held write when the person says no, and refuses a malformed confirm', async () => {
    await using client = await connect(alice);
    const held = parsed(await client.callTool({ name: 'add_task', arguments: { project_id: '1', title: 'Maybe' } }));
    expect(parsed(await client.callTool({ name: 'confirm', arguments: { confirmation_id: held.confirmation_id, confirmed: false } }))).toEqual({ status: 'cancelled', reason: 'user_rejected' });
    expect(parsed(await client.callTool({ name: 'confirm', arguments: { confirmation_id: held.confirmation_id } }))).toMatchObject({ error: { code: 'invalid_arguments' } });
  });

  it('asks the person by elicitation when the client supports it, and offers no confirm tool then', async () => {
    const asked: string[] = [];
    await using client = await connect(alice, (message) => {
      asked.push(message);
      return { action: 'accept', content: { confirm: true } };
    });
    expect((await client.listTools()).tools.map((tool) => tool.name)).not.toContain('confirm');
    const created = parsed(await client.callTool({ name: 'create_project', arguments: { name: 'Gemini' } }));
    expect(created).toMatchObject({ name: 'Gemini' });
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatch(/^Run create_project with name Gemini, as alice\?/);
    expect(parsed(await client.callTool({ name: 'confirm', arguments: { confirmation_id: 'x', confirmed: true } }))).toMatchObject({ error: { code: 'unknown_tool' } });
  });

  it('makes no change when the person declines or dismisses the elicitation', async () => {
    for (const action of ['decline', 'cancel'] as const) {
      await using client = await connect(alice, () => ({ action }));
      expect(parsed(await client.callTool({ name: 'create_project', arguments: { name: `Nope ${action}` } }))).toEqual({ status: 'cancelled', reason: 'user_rejected' });
    }
    await using reader = await connect(alice);
    const projects = parsed(await reader.callTool({ name: 'query', arguments: { manager: 'Project', fields: ['name'], filters: { name__startswith: 'Nope' } } }));
    expect(projects).toMatchObject({ total_count: 0 });
  });

  it('answers a call the admission check refuses with its code, and runs nothing', async () => {
    let budget = 1;
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const server = createMcpToolServer({
      dispatcher,
      actor: bob,
      admit: () => Promise.resolve(budget-- > 0 ? undefined : { error: { code: 'rate_limited', message: 'Rate limit exceeded (requests). Try again in 60 seconds.', details: { retry_after_seconds: 60 } } }),
    });
    await server.connect(serverSide);
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(clientSide);
    try {
      expect(parsed(await client.callTool({ name: 'get_order', arguments: { order_id: '4411' } }))).toMatchObject({ order_id: '4411' });
      const refused = await client.callTool({ name: 'get_order', arguments: { order_id: '4411' } });
      expect(refused.isError).toBe(true);
      expect(parsed(refused)).toEqual({ error: { code: 'rate_limited', message: 'Rate limit exceeded (requests). Try again in 60 seconds.', details: { retry_after_seconds: 60 } } });
    } finally {
      await client.close();
      await server.close();
    }
  });
});
