/**
 * Relation verbs derived regularly from English agent nouns the table does not list (brewer → brew,
 * observer → observe, sponsor → sponsor, player → play), on a schema that is not the demo; and the
 * nouns that name things (order, member) derive nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineHost } from '../config/index.js';
import type { OpenedApp } from '../config/index.js';
import { defineManager } from '../data/index.js';
import type { TurnPlan } from '../router/index.js';
import type { AppReader } from './index.js';
import { createAppReader } from './index.js';
import { openInMemory } from './test-support/host-apps.js';

const open = { read: () => true, create: () => false, update: () => false, delete: () => false };
const Team = defineManager({ name: 'Team', fields: { name: 'string', coachName: 'string' }, relations: { sponsors: { kind: 'manyToMany', target: 'Sponsor' } }, chatExposed: true, permissions: open });
const Sponsor = defineManager({ name: 'Sponsor', fields: { name: 'string' }, chatExposed: true, permissions: open });
const Player = defineManager({ name: 'Player', fields: { fullName: 'string' }, relations: { team: { kind: 'one', target: 'Team', nullable: true } }, chatExposed: true, permissions: open });
const Brewer = defineManager({ name: 'Brewer', fields: { fullName: 'string' }, chatExposed: true, permissions: open });
const Recipe = defineManager({ name: 'Recipe', fields: { name: 'string' }, chatExposed: true, permissions: open });
const Batch = defineManager({ name: 'Batch', fields: { brewedOn: 'date' }, relations: { recipe: { kind: 'one', target: 'Recipe' }, brewer: { kind: 'one', target: 'Brewer' } }, chatExposed: true, permissions: open });
const Order = defineManager({ name: 'OrderLine', fields: { quantity: 'integer' }, relations: { order: { kind: 'one', target: 'Recipe' } }, chatExposed: true, permissions: open });

let opened: OpenedApp;
let reader: AppReader;
beforeAll(async () => {
  opened = await openInMemory(
    defineHost({
      managers: [Team, Sponsor, Player, Brewer, Recipe, Batch, Order],
      seed: [
        { manager: 'Sponsor', rows: [{ id: 1, name: 'Harbor Bank' }] },
        { manager: 'Team', rows: [{ id: 1, name: 'Carrow City', coachName: 'Hannah Weiss', sponsors: [1] }] },
        { manager: 'Player', rows: [{ id: 1, fullName: 'Mateus Lima', team: 1 }] },
        { manager: 'Brewer', rows: [{ id: 1, fullName: 'Greta Holm' }] },
        { manager: 'Recipe', rows: [{ id: 1, name: 'Night Heron' }] },
        { manager: 'Batch', rows: [{ id: 1, recipe: 1, brewer: 1, brewedOn: '2026-10-01' }] },
      ],
    }),
  );
  reader = await createAppReader({ app: opened.app, hostTools: [], secret: 'agent-verbs-secret-0123456789' });
});
afterAll(async () => opened.close());

function read(turn: string): { tool: string | undefined; filters: unknown; fields?: unknown } | null {
  const p: TurnPlan = reader.router().plan(turn, { language: 'en', context: { now: '2026-12-01T09:00:00Z' } });
  if (p.outcome !== 'run') return null;
  const args = p.steps[0]?.selection.arguments as { filters?: unknown; fields?: unknown };
  return { tool: p.steps[0]?.selection.tool ?? undefined, filters: args.filters };
}

describe('verbs of regular agent nouns', () => {
  it('reads a verb of a relation named by an agent noun, from either side', () => {
    expect(read('who brewed Night Heron?')).toEqual({ tool: 'query_brewer', filters: { batches__recipe__name: 'Night Heron' } });
    expect(read('which recipes did Greta Holm brew?')).toEqual({ tool: 'query_recipe', filters: { batches__brewer__fullName: 'Greta Holm' } });
  });
  it("reads the verb of a manager named by an agent noun along its relation (Player.team → play for)", () => {
    expect(read('which players play for Carrow City?')).toEqual({ tool: 'query_player', filters: { team__name: 'Carrow City' } });
    expect(read('what team does Mateus Lima play for?')).toEqual({ tool: 'query_team', filters: { players__fullName: 'Mateus Lima' } });
  });
  it('reads the verb of a name field of an agent ("coach name" → who coaches)', () => {
    expect(read('who coaches Carrow City?')).toMatchObject({ tool: 'query_team', filters: { name: 'Carrow City' } });
  });
  it('reads a noun that is its own verb (sponsor → sponsors, sponsored)', () => {
    expect(read('who sponsors Carrow City?')).toEqual({ tool: 'query_sponsor', filters: { teams__name: 'Carrow City' } });
    expect(read('which teams are sponsored by Harbor Bank?')).toEqual({ tool: 'query_team', filters: { sponsors__name: 'Harbor Bank' } });
  });
  it('leaves a passive verb with no manager named unread: its agent is not what is asked', () => {
    expect(read('what has been brewed by Greta Holm?')).toBeNull();
    expect(read('which recipes were brewed by Greta Holm?')).toEqual({ tool: 'query_recipe', filters: { batches__brewer__fullName: 'Greta Holm' } });
  });
  it('derives nothing from a noun that names a thing ("order" gives no "ordered")', () => {
    expect(read('who ordered Night Heron?')).toBeNull();
  });
});
