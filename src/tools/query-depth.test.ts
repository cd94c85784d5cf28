import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userActor } from '../core/index.js';
import { defineApp, defineManager, sqlite } from '../data/index.js';
import type { App } from '../data/index.js';
import { createChatDispatcher, isToolError, parseToolSettings } from './index.js';
import type { Dispatcher, ToolResult } from './index.js';

/**
 * A chain of five exposed managers, Disk → Server → Rack → Room → Floor → Building, and a hidden
 * Vault beside Floor: deep enough to cross the default `maxRelationDepth` of 3.
 */
const one = (target: string, reverse: string) => ({ kind: 'one' as const, target, reverse });
const managers = [
  defineManager({ name: 'Building', description: 'A building.', fields: { name: 'string' }, chatExposed: true }),
  defineManager({ name: 'Vault', description: 'A vault (hidden).', fields: { name: 'string' } }),
  defineManager({ name: 'Floor', description: 'A floor.', fields: { name: 'string' }, relations: { building: one('Building', 'floors'), vault: one('Vault', 'floors') }, chatExposed: true }),
  defineManager({ name: 'Room', description: 'A room.', fields: { name: 'string' }, relations: { floor: one('Floor', 'rooms') }, chatExposed: true }),
  defineManager({ name: 'Rack', description: 'A rack.', fields: { name: 'string' }, relations: { room: one('Room', 'racks') }, chatExposed: true }),
  defineManager({ name: 'Server', description: 'A server.', fields: { name: 'string' }, relations: { rack: one('Rack', 'servers') }, chatExposed: true }),
  defineManager({ name: 'Disk', description: 'A disk.', fields: { name: 'string' }, relations: { server: one('Server', 'disks') }, chatExposed: true }),
];

const actor = userActor('alice', ['staff']);
const readInSteps = 'Read in steps: query the nearer manager first, then filter the next by its id.';
let dir: string;
let app: App;
let dispatcher: Dispatcher;
let shallow: Dispatcher;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'plumb-depth-'));
  app = defineApp({ managers, database: sqlite({ path: join(dir, 'racks.sqlite') }) });
  await app.ready();
  await app.load('Building', [{ id: 1, name: 'North' }]);
  await app.load('Vault', [{ id: 1, name: 'V1' }]);
  await app.load('Floor', [{ id: 1, name: 'Ground', building: 1, vault: 1 }]);
  await app.load('Room', [{ id: 1, name: 'R101', floor: 1 }]);
  await app.load('Rack', [{ id: 1, name: 'A1', room: 1 }]);
  await app.load('Server', [{ id: 1, name: 'db-1', rack: 1 }]);
  await app.load('Disk', [{ id: 1, name: 'sda', server: 1 }]);
  dispatcher = createChatDispatcher({ app });
  shallow = createChatDispatcher({ app, settings: { maxRelationDepth: 1 } });
});

afterAll(async () => {
  await app.close();
  rmSync(dir, { recursive: true, force: true });
});

type Page = { data: Record<string, unknown>[]; total_count: number };
const query = (args: object, on = dispatcher) => on.dispatch({ name: 'query', arguments: args }, { actor });

function failure(result: ToolResult): { code: string; message: string } {
  if (!isToolError(result)) throw new Error(`expected an error result, got ${JSON.stringify(result)}`);
  return result.error;
}

describe('maxRelationDepth (default 3)', () => {
  it('reads a selection nested 3 relations deep and filters through 3 relations', async () => {
    const nested = (await query({ manager: 'Server', fields: ['name', { rack: [{ room: [{ floor: ['name'] }] }] }] })) as Page;
    expect(nested.data).toEqual([{ name: 'db-1', rack: { room: { floor: { name: 'Ground' } } } }]);
    const filtered = (await query({ manager: 'Disk', fields: ['name'], filters: { server__rack__room__name: 'R101' } })) as Page;
    expect(filtered.data).toEqual([{ name: 'sda' }]);
  });

  it('refuses a selection nested 4 relations deep with the depth limit, naming it and the setting', async () => {
    const error = failure(await query({ manager: 'Server', fields: [{ rack: [{ room: [{ floor: [{ building: ['name'] }] }] }] }] }));
    expect(error).toEqual({
      code: 'invalid_arguments',
      message: `The selection 'rack.room.floor.building' on Server nests 4 relations; the depth limit is 3 (maxRelationDepth). ${readInSteps}`,
    });
  });

  it('refuses a filter key whose relations are valid but traverse 4, in filters and exclude, with the depth limit', async () => {
    const error = failure(await query({ manager: 'Disk', fields: ['name'], filters: { server__rack__room__floor__name: 'Ground' } }));
    expect(error).toEqual({
      code: 'invalid_arguments',
      message: `Filter key 'server__rack__room__floor__name' in filters on Disk traverses 4 relations; the depth limit is 3 (maxRelationDepth). ${readInSteps}`,
    });
    const excluded = failure(await query({ manager: 'Disk', exclude: { server__rack__room__floor__name__icontains: 'g' } }));
    expect(excluded.message).toContain("'server__rack__room__floor__name__icontains' in exclude on Disk traverses 4 relations; the depth limit is 3 (maxRelationDepth).");
  });

  it('names the depth limit for the one camelCase spelling of a key that is too deep', async () => {
    const error = failure(await query({ manager: 'Disk', filters: { serverRackRoomFloorName: 'Ground' } }));
    expect(error.message).toBe(`Filter key 'serverRackRoomFloorName' ('server__rack__room__floor__name') in filters on Disk traverses 4 relations; the depth limit is 3 (maxRelationDepth). ${readInSteps}`);
  });

  it('keeps an unknown or hidden relation past the limit unknown, not too deep', async () => {
    const hidden = failure(await query({ manager: 'Server', fields: [{ rack: [{ room: [{ floor: [{ vault: ['name'] }] }] }] }] }));
    expect(hidden.message).toMatch(/^Unknown relation 'vault' on Floor\. Relations: building, rooms\.$/);
    const hiddenKey = failure(await query({ manager: 'Disk', filters: { server__rack__room__floor__vault__name: 'V1' } }));
    expect(hiddenKey.message).toMatch(/^Unknown filter key 'server__rack__room__floor__vault__name' in filters on Disk\./);
    const typo = failure(await query({ manager: 'Disk', filters: { server__rack__room__floor__colour: 'red' } }));
    expect(typo.message).toMatch(/^Unknown filter key /);
  });
});

describe('a lowered maxRelationDepth', () => {
  it('reads one relation deep and refuses two, in selections and filters', async () => {
    const near = (await query({ manager: 'Server', fields: ['name', { rack: ['name'] }], filters: { rack__name: 'A1' } }, shallow)) as Page;
    expect(near.data).toEqual([{ name: 'db-1', rack: { name: 'A1' } }]);
    expect(failure(await query({ manager: 'Server', fields: [{ rack: [{ room: ['name'] }] }] }, shallow)).message).toBe(
      `The selection 'rack.room' on Server nests 2 relations; the depth limit is 1 (maxRelationDepth). ${readInSteps}`,
    );
    expect(failure(await query({ manager: 'Server', filters: { rack__room__name: 'R101' } }, shallow)).message).toBe(
      `Filter key 'rack__room__name' in filters on Server traverses 2 relations; the depth limit is 1 (maxRelationDepth). ${readInSteps}`,
    );
    expect(failure(await query({ manager: 'Server', filters: { rack_room_name: 'R101' } }, shallow)).message).toContain(
      "Filter key 'rack_room_name' ('rack__room__name') in filters on Server traverses 2 relations; the depth limit is 1 (maxRelationDepth).",
    );
  });

  it('tells the model its limit in the query tool description', () => {
    const description = (on: Dispatcher) => on.definitions().find((tool) => tool.name === 'query')!.description;
    expect(description(shallow)).toContain('relations at most 1 deep');
    expect(description(dispatcher)).toContain('relations at most 3 deep');
  });
});

describe('the maxRelationDepth setting', () => {
  it('defaults to 3, the data layer\'s ceiling, and accepts 1 to 3 only', () => {
    expect(parseToolSettings({}).maxRelationDepth).toBe(3);
    expect(parseToolSettings({ maxRelationDepth: 2 }).maxRelationDepth).toBe(2);
    for (const bad of [0, 4, 1.5]) expect(() => parseToolSettings({ maxRelationDepth: bad })).toThrow(/maxRelationDepth/);
  });
});
