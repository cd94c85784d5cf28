import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hasRole, userActor } from '../core/index.js';
import { defineApp, defineManager, sqlite } from '../data/index.js';
import type { App } from '../data/index.js';

/** A small shop for the tools' own tests: one hidden manager, one with row permissions. Not exported. */
export const staff = userActor('alice', ['staff']);
export const other = userActor('bob', []);

export function fixtureManagers() {
  return [
    defineManager({ name: 'Material', description: 'A raw material parts are made of.', fields: { name: 'string', density: 'float' }, chatExposed: true }),
    defineManager({
      name: 'Part',
      description: 'A part the shop sells.',
      fields: { name: 'string', sku: 'string', unitPrice: 'decimal', stock: { type: 'integer', default: 0 } },
      relations: {
        material: { kind: 'one', target: 'Material', reverse: 'parts' },
        supplier: { kind: 'one', target: 'Supplier', reverse: 'parts', nullable: true },
      },
      chatExposed: true,
    }),
    defineManager({ name: 'Supplier', description: 'Who sells us material (hidden).', fields: { name: 'string', secretRating: 'integer' } }),
    defineManager({
      name: 'Project',
      description: 'An engineering project.',
      fields: { name: 'string' },
      relations: { parts: { kind: 'manyToMany', target: 'Part', reverse: 'projects' } },
      chatExposed: true,
    }),
    defineManager({
      name: 'Task',
      description: 'A task of a project.',
      fields: { title: 'string', done: { type: 'boolean', default: false } },
      relations: { project: { kind: 'one', target: 'Project', reverse: 'tasks' } },
      chatExposed: true,
      permissions: { create: (actor) => hasRole(actor, 'staff'), update: (actor) => hasRole(actor, 'staff') },
    }),
    defineManager({
      name: 'Note',
      description: 'A private note; each person sees only their own.',
      fields: { text: 'string', ownerId: 'string' },
      chatExposed: true,
      permissions: { read: (actor) => (actor.kind === 'user' ? { ownerId: actor.id } : false) },
    }),
  ];
}

export interface FixtureApp {
  readonly app: App;
  close(): Promise<void>;
}

export async function openFixtureApp(): Promise<FixtureApp> {
  const dir = mkdtempSync(join(tmpdir(), 'plumb-tools-'));
  const app = defineApp({ managers: fixtureManagers(), database: sqlite({ path: join(dir, 'shop.sqlite') }) });
  await app.ready();
  await app.load('Material', [
    { id: 1, name: 'Steel', density: 7.85 },
    { id: 2, name: 'Aluminium', density: 2.7 },
  ]);
  await app.load('Supplier', [{ id: 1, name: 'Acme', secretRating: 3 }]);
  await app.load(
    'Part',
    Array.from({ length: 30 }, (_, i) => ({
      id: i + 1,
      name: i === 0 ? 'Hex bolt' : `Part ${i + 1}`,
      sku: `SKU-${String(i + 1).padStart(3, '0')}`,
      unitPrice: `${i + 1}.50`,
      stock: i,
      material: i % 2 === 0 ? 1 : 2,
      supplier: 1,
    })),
  );
  await app.load('Project', [{ id: 1, name: 'Mercury', parts: [1, 2] }]);
  await app.load('Task', [{ id: 1, title: 'Order bolts', project: 1 }]);
  await app.load('Note', [
    { id: 1, text: 'alice one', ownerId: 'alice' },
    { id: 2, text: 'alice two', ownerId: 'alice' },
    { id: 3, text: 'bob one', ownerId: 'bob' },
  ]);
  return {
    app,
    close: async () => {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
