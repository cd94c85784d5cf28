/**
 * The held-out turns of test-support/family-turns.ts over the school, the hostel, the fleet and the
 * library: each reads as written there (the read, its filters, its fields, its calculation) or stays
 * unread — never another read.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenedApp } from '../config/index.js';
import type { TurnPlan } from '../router/index.js';
import type { AppReader } from './index.js';
import { createAppReader } from './index.js';
import type { ExpectedRead, FamilyApp, FamilyTurn } from './test-support/family-turns.js';
import { FAMILY_TURNS } from './test-support/family-turns.js';
import { fleetHost, hostelHost, schoolHost } from './test-support/fresh-hosts.js';
import { libraryHost, openInMemory } from './test-support/host-apps.js';

const NOW = { now: '2026-12-01T09:00:00Z' };
const apps = new Map<FamilyApp, { opened: OpenedApp; reader: AppReader }>();

beforeAll(async () => {
  for (const [name, host] of [['school', schoolHost()], ['hostel', hostelHost()], ['fleet', fleetHost()], ['library', libraryHost()]] as const) {
    const opened = await openInMemory(host);
    const reader = await createAppReader({ app: opened.app, hostTools: opened.tools, rulebook: { compute: true }, secret: 'families-fresh-secret-0123456789' });
    apps.set(name, { opened, reader });
  }
});

afterAll(async () => {
  for (const app of apps.values()) await app.opened.close();
});

/** What a plan read, in the terms of an expectation; null where it did not run. */
function readOf(p: TurnPlan, expected: ExpectedRead | 'unread'): ExpectedRead | null {
  if (p.outcome !== 'run') return null;
  const [read, compute] = p.steps;
  const args = (read?.selection.arguments ?? {}) as { fields?: string[]; filters?: Record<string, unknown> };
  const op = compute?.kind === 'compute' ? compute.compute?.operation : undefined;
  return {
    tool: read?.selection.tool ?? '',
    ...(args.filters === undefined ? {} : { filters: args.filters }),
    ...(expected !== 'unread' && expected.fields !== undefined ? { fields: args.fields ?? [] } : {}),
    ...(op === 'count' || op === 'exists' ? { compute: op } : {}),
  };
}

function score(turns: readonly FamilyTurn[]): { answered: number; right: number; wrong: string[]; missed: string[] } {
  let answered = 0;
  let right = 0;
  const wrong: string[] = [];
  const missed: string[] = [];
  for (const t of turns) {
    const p = (apps.get(t.app) as { reader: AppReader }).reader.router().plan(t.turn, { language: t.language, context: NOW });
    const got = readOf(p, t.expect);
    if (got === null) {
      if (t.expect !== 'unread') missed.push(`${t.app}: ${t.turn} (${p.outcome})`);
      else right++;
      continue;
    }
    answered++;
    if (t.expect !== 'unread' && JSON.stringify(sorted(got)) === JSON.stringify(sorted(t.expect))) right++;
    else wrong.push(`${t.app}: ${t.turn} → ${JSON.stringify(got)}`);
  }
  return { answered, right, wrong, missed };
}

/** Keys in one order, so that two reads compare by what they hold. */
function sorted(read: ExpectedRead): unknown {
  const filters = read.filters === undefined ? undefined : Object.fromEntries(Object.entries(read.filters).sort(([a], [b]) => a.localeCompare(b)));
  return [read.tool, filters, read.fields, read.compute];
}

describe('held-out turns of the relation-verb, value-as-noun and attribute families', () => {
  for (const family of ['verbs', 'nouns', 'attributes'] as const) {
    it(`reads the ${family} turns as written, in English and Portuguese, on four schemas`, () => {
      const turns = FAMILY_TURNS.filter((t) => t.family === family);
      const result = score(turns);
      // eslint-disable-next-line no-console -- figures on request, for the closing notes
      if (process.env['PLUMB_FAMILY_FIGURES'] !== undefined) console.log(family, turns.length, JSON.stringify(result, null, 1));
      expect(result.wrong).toEqual([]);
      expect(result.missed).toEqual([]);
    });
  }
});
