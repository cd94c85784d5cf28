import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hasRole, isAuthenticated, userActor } from '../../../src/core/index.js';
import type { Actor } from '../../../src/core/index.js';
import { defineApp } from '../../../src/data/app.js';
import type { App, AppOptions } from '../../../src/data/app.js';
import { defineManager } from '../../../src/data/define-manager.js';
import type { Database } from '../../../src/data/database.js';
import type { ManagerSpec } from '../../../src/data/definition-types.js';
import { sqlite } from '../../../src/data/sqlite-database.js';

/** A small shop used by the data layer's own tests: every field type, every relation kind, row permissions. */
export const shopManagers: readonly ManagerSpec[] = [
  defineManager({
    name: 'Material',
    description: 'What parts are made of.',
    fields: { name: 'string', density: 'float', code: { type: 'string', nullable: true } },
    chatExposed: true,
  }),
  defineManager({
    name: 'Part',
    description: 'A catalogue part.',
    fields: {
      name: 'string',
      sku: 'string',
      unitPrice: { type: 'decimal', default: '0.00' },
      stock: { type: 'integer', default: 0 },
      active: { type: 'boolean', default: true },
      kind: { type: 'enum', values: ['fastener', 'motion', 'structure'], default: 'fastener' },
      notes: { type: 'text', nullable: true },
      releasedOn: { type: 'date', nullable: true },
      checkedAt: { type: 'datetime', nullable: true },
      weight: { type: 'float', nullable: true },
      specs: { type: 'json', nullable: true, filterable: false },
    },
    relations: { material: { kind: 'one', target: 'Material', nullable: true } },
    chatExposed: true,
    permissions: {
      create: (actor) => hasRole(actor, 'admin'),
      update: (actor) => hasRole(actor, 'admin'),
      delete: (actor) => hasRole(actor, 'admin'),
    },
  }),
  defineManager({
    name: 'Project',
    fields: {
      name: 'string',
      status: { type: 'enum', values: ['planned', 'active', 'done'] },
      budget: { type: 'decimal', nullable: true },
    },
    relations: { parts: { kind: 'manyToMany', target: 'Part' } },
    chatExposed: true,
  }),
  defineManager({
    name: 'Customer',
    fields: { name: 'string', city: 'string', ownerId: 'string' },
    permissions: {
      read: (actor) => (hasRole(actor, 'admin') ? true : isAuthenticated(actor) ? { ownerId: actor.id } : false),
    },
  }),
  defineManager({
    name: 'Order',
    fields: {
      status: { type: 'enum', values: ['open', 'paid', 'shipped'] },
      total: 'decimal',
      placedAt: 'datetime',
    },
    relations: { customer: { kind: 'one', target: 'Customer' } },
    permissions: {
      read: (actor) => (hasRole(actor, 'admin') ? true : isAuthenticated(actor) ? { customer__ownerId: actor.id } : false),
    },
  }),
  defineManager({
    name: 'OrderLine',
    fields: { quantity: 'integer', unitPrice: 'decimal' },
    relations: {
      order: { kind: 'one', target: 'Order', reverse: 'lines' },
      part: { kind: 'one', target: 'Part' },
    },
  }),
];

export const admin: Actor = userActor('alice', ['admin']);
export const sales: Actor = userActor('bob', ['sales']);
export const carol: Actor = userActor('carol', ['sales']);

/** Seeds: 3 materials, 5 parts, 2 projects, 3 customers (bob owns 2), 4 orders with lines. */
export async function seedShop(app: App): Promise<void> {
  await app.load('Material', [
    { id: 1, name: 'Steel', density: 7.8, code: 'ST' },
    { id: 2, name: 'Aluminum', density: 2.7, code: null },
    { id: 3, name: 'Cobalt', density: 8.9, code: 'CO' },
  ]);
  await app.load('Part', [
    { id: 1, name: 'Bolt', sku: 'B-1', material: 1, unitPrice: '0.25', stock: 1000, kind: 'fastener', releasedOn: '2024-01-15', checkedAt: '2026-01-10T08:00:00Z', weight: 0.01, specs: { thread: 'M6' } },
    { id: 2, name: 'Bearing', sku: 'BR-2', material: 2, unitPrice: '12.50', stock: 40, kind: 'motion', releasedOn: '2024-06-01', notes: 'Sealed; 100% tested' },
    { id: 3, name: 'Gear', sku: 'G-3', material: 3, unitPrice: '48.00', stock: 12, kind: 'motion', releasedOn: '2025-02-20', checkedAt: '2026-01-12T10:30:00+02:00' },
    { id: 4, name: 'Bracket', sku: 'BK-4', material: 1, unitPrice: '3.10', stock: 0, kind: 'structure', active: false },
    { id: 5, name: 'Washer', sku: 'W_5', material: null, unitPrice: '0.05', stock: 5000 },
  ]);
  await app.load('Project', [
    { id: 1, name: 'Apollo', status: 'active', budget: '250000.00', parts: [3, 1] },
    { id: 2, name: 'Mercury', status: 'planned', budget: null, parts: [2] },
  ]);
  await app.load('Customer', [
    { id: 1, name: 'Acme', city: 'Lisbon', ownerId: 'bob' },
    { id: 2, name: 'Globex', city: 'Porto', ownerId: 'bob' },
    { id: 3, name: 'Initech', city: 'Lisbon', ownerId: 'carol' },
  ]);
  await app.load('Order', [
    { id: 4411, customer: 1, status: 'paid', total: '25.25', placedAt: '2026-01-05T09:00:00Z' },
    { id: 4412, customer: 2, status: 'open', total: '48.00', placedAt: '2026-01-06T09:00:00Z' },
    { id: 4413, customer: 3, status: 'shipped', total: '12.50', placedAt: '2026-01-07T09:00:00Z' },
    { id: 4414, customer: 1, status: 'open', total: '0.50', placedAt: '2026-01-08T09:00:00Z' },
  ]);
  await app.load('OrderLine', [
    { order: 4411, part: 1, quantity: 1, unitPrice: '0.25' },
    { order: 4411, part: 3, quantity: 1, unitPrice: '25.00' },
    { order: 4412, part: 3, quantity: 1, unitPrice: '48.00' },
    { order: 4413, part: 2, quantity: 1, unitPrice: '12.50' },
    { order: 4414, part: 5, quantity: 10, unitPrice: '0.05' },
  ]);
}

export interface ShopHandle {
  readonly app: App;
  readonly dir: string;
  readonly statements: string[];
  dispose(): Promise<void>;
}

/** A seeded shop app in a fresh SQLite file under a temp dir; `statements` records every SQL statement. */
export async function openShop(
  options: Partial<Pick<AppOptions, 'settings'>> & { readonly seed?: boolean; readonly database?: (dir: string) => Database | Promise<Database> } = {},
): Promise<ShopHandle> {
  const dir = mkdtempSync(join(tmpdir(), 'plumb-data-'));
  const statements: string[] = [];
  const database = options.database === undefined ? sqlite({ path: join(dir, 'shop.db') }) : await options.database(dir);
  const app = defineApp({ managers: shopManagers, database, settings: options.settings, onQuery: (text) => statements.push(text) });
  await app.ready();
  if (options.seed !== false) await seedShop(app);
  return {
    app,
    dir,
    statements,
    dispose: async () => {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Runs a document and returns `data`, failing loudly (with the errors) when there are any. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read deep, document-shaped paths
export async function dataOf(app: App, actor: Actor, document: string, variables?: Record<string, unknown>): Promise<any> {
  const result = await app.graphql({ actor, document, variables });
  if (result.errors !== undefined && result.errors.length > 0) throw new Error(`GraphQL errors: ${JSON.stringify(result.errors)}`);
  return result.data;
}

/** Runs a document expected to fail and returns its first error in wire form. */
export async function errorOf(app: App, actor: Actor, document: string, variables?: Record<string, unknown>): Promise<{ message: string; code: string; plumbCode?: string }> {
  const result = await app.graphql({ actor, document, variables });
  const error = result.errors?.[0];
  if (error === undefined) throw new Error(`Expected an error, got ${JSON.stringify(result.data)}`);
  return { message: error.message, code: String(error.extensions.code), plumbCode: error.extensions.plumbCode as string | undefined };
}
