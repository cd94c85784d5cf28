/** Host-named conditions, the asking person and possessive follow-ups, on a school schema that is not the demo. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineHost } from '../config/index.js';
import type { OpenedApp } from '../config/index.js';
import { userActor } from '../core/index.js';
import { defineManager } from '../data/index.js';
import type { Language, TurnPlan } from '../router/index.js';
import type { AppReader } from './index.js';
import { createAppReader } from './index.js';
import { openInMemory } from './test-support/host-apps.js';

const NOW = '2026-12-01T09:00:00Z';
const Teacher = defineManager({ name: 'Teacher', fields: { name: 'string', country: 'string' }, chatExposed: true });
const Student = defineManager({ name: 'Student', fields: { name: 'string', email: 'string', city: 'string' }, chatExposed: true });
const Course = defineManager({ name: 'Course', fields: { title: 'string', kind: { type: 'enum', values: ['core', 'elective'] } }, relations: { teacher: { kind: 'one', target: 'Teacher' } }, chatExposed: true });
const Enrollment = defineManager({
  name: 'Enrollment',
  fields: { dueOn: 'date', paidOn: { type: 'date', nullable: true } },
  relations: { student: { kind: 'one', target: 'Student' }, course: { kind: 'one', target: 'Course' } },
  chatExposed: true,
  conditions: { overdue: { filter: { dueOn__lt: '$today', paidOn__isnull: true }, description: 'Due and not paid.', words: { 'pt-BR': ['atrasada', 'em atraso'] } } },
});
const VOCABULARY = { languages: { 'pt-BR': { data: { managers: { Enrollment: ['matrícula', 'matrículas'], Student: ['aluno', 'alunos'] } } } } };

let opened: OpenedApp;
let reader: AppReader;
beforeAll(async () => {
  opened = await openInMemory(defineHost({
    managers: [Teacher, Student, Course, Enrollment],
    actorRow: { manager: 'Student', field: 'email' },
    examples: ['how many enrollments are overdue?'],
    seed: [
      { manager: 'Teacher', rows: [{ id: 1, name: 'Ada Okafor', country: 'Kenya' }, { id: 2, name: 'Leo Brun', country: 'France' }] },
      { manager: 'Student', rows: [{ id: 1, name: 'Rosa Lima', email: 'rosa@school.example', city: 'Lyon' }, { id: 2, name: 'Ben Carter', email: 'ben@school.example', city: 'Porto' }] },
      { manager: 'Course', rows: [{ id: 1, title: 'Algebra', kind: 'core', teacher: 1 }, { id: 2, title: 'Pottery', kind: 'elective', teacher: 2 }] },
      { manager: 'Enrollment', rows: [{ id: 1, student: 1, course: 1, dueOn: '2026-11-01', paidOn: null }, { id: 2, student: 2, course: 2, dueOn: '2026-11-01', paidOn: '2026-10-20' }] },
    ],
  }));
  reader = await createAppReader({ app: opened.app, hostTools: [], secret: 'named-words-secret-0123456789', vocabulary: VOCABULARY, actorRow: { manager: 'Student', field: 'email' }, examples: ['how many enrollments are overdue?', 'delete enrollment 2'] });
});
afterAll(async () => opened.close());

const rosa = (): object => reader.actorContext(userActor('rosa@school.example', []));
function plan(turn: string, language: Language = 'en', context: object = {}): TurnPlan {
  return reader.router().plan(turn, { language, context: { now: NOW, ...context } });
}
const filters = (p: TurnPlan): unknown => (p.steps[0]?.selection.arguments as { filters?: unknown }).filters;

describe('host-named conditions', () => {
  it('reads a condition as an adjective and as a predicate, in both languages', () => {
    const overdue = { dueOn__lt: '2026-12-01', paidOn__isnull: true };
    for (const [turn, language] of [['list the overdue enrollments', 'en'], ['how many enrollments are overdue?', 'en'], ['how many are overdue?', 'en'], ['matrículas em atraso', 'pt-BR'], ['quantas matrículas estão atrasadas?', 'pt-BR']] as const) {
      const p = plan(turn, language);
      expect(p.outcome, turn).toBe('run');
      expect(filters(p), turn).toEqual(overdue);
    }
  });
  it('refuses an unknown key at definition, naming the manager, the condition and the closest key', () => {
    const Bad = defineManager({ name: 'Bill', fields: { dueOn: 'date' }, conditions: { late: { dueOnn__lt: '$today' } } });
    return expect(openInMemory(defineHost({ managers: [Bad] }))).rejects.toMatchObject({ code: 'invalid_condition', message: expect.stringMatching(/Bill\.conditions\.late: unknown filter key 'dueOnn__lt'\. Did you mean 'dueOn__lt'/) });
  });
});

describe('the asking person', () => {
  it("narrows first-person turns to the actor's rows through the relation to their manager", () => {
    for (const [turn, language] of [['show my enrollments', 'en'], ['my overdue enrollments', 'en'], ['minhas matrículas', 'pt-BR']] as const) {
      const p = plan(turn, language, rosa());
      expect(p.outcome, turn).toBe('run');
      expect(filters(p), turn).toMatchObject({ student__email: 'rosa@school.example' });
    }
  });
  it('leaves a first-person turn unread with no row for the actor, never everyone', () => {
    for (const [turn, language] of [['show my enrollments', 'en'], ['minhas matrículas', 'pt-BR']] as const) {
      const p = plan(turn, language, reader.actorContext({ kind: 'anonymous' }));
      expect(p.outcome, turn).toBe('unread');
    }
  });
  it('leaves it unread for a signed-in actor whose id no row of the mapped field holds, never "none"', () => {
    const stranger = reader.actorContext(userActor('someone@else.example', []));
    expect(stranger).toEqual({});
    for (const [turn, language] of [['show my enrollments', 'en'], ['minhas matrículas', 'pt-BR']] as const) expect(plan(turn, language, stranger).outcome, turn).toBe('unread');
  });
});

describe('follow-ups and the unread reply', () => {
  it('keeps the referent of "and their courses?"', () => {
    const chat = reader.router().session({ context: { now: NOW } });
    expect(chat.read('list the teachers from Kenya').outcome).toBe('run');
    const p = chat.read('and their courses?');
    expect(p.outcome).toBe('run');
    expect(filters(p)).toEqual({ teacher__country: 'Kenya' });
  });
  it('offers the host examples it reads, never a write', () => {
    const p = plan('what is the weather like');
    expect(p.outcome).toBe('unread');
    expect(p.guidance?.render).toContain('how many enrollments are overdue?');
    expect(p.guidance?.render).not.toContain('delete');
  });
});
