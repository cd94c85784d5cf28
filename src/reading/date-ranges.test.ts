/**
 * A row's period holding a day ("which exhibitions are running now?", "is Tidelines on today?", "em
 * cartaz hoje", "who is away today?"), on a museum that is not the demo: a start ≤ day ≤ end, an
 * empty end open.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineHost } from '../config/index.js';
import type { OpenedApp } from '../config/index.js';
import { defineManager } from '../data/index.js';
import type { Language, TurnPlan } from '../router/index.js';
import type { AppReader } from './index.js';
import { createAppReader } from './index.js';
import { openInMemory } from './test-support/host-apps.js';

const open = { read: () => true, create: () => false, update: () => false, delete: () => false };
const Event = defineManager({
  name: 'Event',
  fields: { title: 'string', opensOn: 'date', closesOn: { type: 'date', nullable: true }, curatedOn: 'date' },
  chatExposed: true,
  permissions: open,
});
const Absence = defineManager({ name: 'Absence', fields: { guide: 'string', startsOn: 'date', endsOn: 'date' }, chatExposed: true, permissions: open });
const Visit = defineManager({ name: 'Visit', fields: { school: 'string', visitedOn: 'date' }, chatExposed: true, permissions: open });

let opened: OpenedApp;
let reader: AppReader;
beforeAll(async () => {
  opened = await openInMemory(
    defineHost({
      managers: [Event, Absence, Visit],
      seed: [
        { manager: 'Event', rows: [{ id: 1, title: 'Tidelines', opensOn: '2026-11-01', closesOn: null, curatedOn: '2026-06-01' }, { id: 2, title: 'Old Maps', opensOn: '2026-01-10', closesOn: '2026-03-01', curatedOn: '2025-11-01' }] },
        { manager: 'Absence', rows: [{ id: 1, guide: 'Rui Sousa', startsOn: '2026-11-30', endsOn: '2026-12-04' }] },
        { manager: 'Visit', rows: [{ id: 1, school: 'Hillside', visitedOn: '2026-12-01' }] },
      ],
    }),
  );
  reader = await createAppReader({ app: opened.app, hostTools: [], rulebook: { compute: true }, secret: 'date-ranges-secret-0123456789' });
});
afterAll(async () => opened.close());

function plan(turn: string, language: Language = 'en'): TurnPlan {
  return reader.router().plan(turn, { language, context: { now: '2026-12-01T09:00:00Z' } });
}
const args = (p: TurnPlan): unknown => (p.outcome === 'run' ? p.steps[0]?.selection.arguments : p.outcome);
const fields = ['id', 'title', 'opensOn', 'closesOn', 'curatedOn'];

describe('date ranges holding a day', () => {
  it('reads "running now", "currently on", "em cartaz" as a start up to today and an end not before it, an empty end open', () => {
    const running = { fields, filters: { opensOn__lt: '2026-12-02' }, exclude: { closesOn__lt: '2026-12-01' } };
    expect(args(plan('which events are running now?'))).toEqual(running);
    expect(args(plan('events running'))).toEqual(running);
    expect(args(plan('which events are on today?'))).toEqual(running);
    expect(args(plan('quais eventos estão em cartaz hoje?', 'pt-BR'))).toEqual(running);
    expect(args(plan('eventos em andamento', 'pt-BR'))).toEqual(running);
    expect(args(plan('quais eventos estão em andamento hoje?', 'pt-BR'))).toEqual(running);
  });

  it('reads a named day or period on the pair, and a yes/no on one row', () => {
    expect(args(plan('events on 2026-02-01'))).toEqual({ fields, filters: { opensOn__lt: '2026-02-02' }, exclude: { closesOn__lt: '2026-02-01' } });
    expect(args(plan('events in February 2026'))).toEqual({ fields, filters: { opensOn__lt: '2026-03-01' }, exclude: { closesOn__lt: '2026-02-01' } });
    const asked = plan('is Tidelines on today?');
    expect(args(asked)).toEqual({ fields, filters: { title: 'Tidelines', opensOn__lt: '2026-12-02' }, exclude: { closesOn__lt: '2026-12-01' } });
    expect(asked.steps[1]?.compute?.operation).toBe('exists');
  });

  it('bounds an end that is never empty with a filter, not an exclusion', () => {
    expect(args(plan('which absences are happening today?'))).toEqual({ fields: ['id', 'guide', 'startsOn', 'endsOn'], filters: { startsOn__lt: '2026-12-02', endsOn__gte: '2026-12-01' } });
  });

  it('keeps a named date field its own, and leaves "running" unread where no start and end are', () => {
    expect(args(plan('events curated in 2026'))).toEqual({ fields, filters: { curatedOn__gte: '2026-01-01', curatedOn__lt: '2027-01-01' } });
    expect(args(plan('which visits are running now?'))).toBe('unread');
    expect(args(plan('visits today'))).toEqual({ fields: ['id', 'school', 'visitedOn'], filters: { visitedOn__gte: '2026-12-01', visitedOn__lt: '2026-12-02' } });
  });
});
