/**
 * The held-out turns of test-support/measure-turns.ts over the fleet, hostel and school hosts: each
 * read as a run, an ask or unread, and scored. No wrong run may appear; the figures are printed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenedApp } from '../config/index.js';
import type { JsonValue } from '../core/index.js';
import { userActor } from '../core/index.js';
import type { Language, TurnPlan } from '../router/index.js';
import { runCompute } from '../router/index.js';
import { createDispatcher } from '../tools/index.js';
import type { AppReader } from './index.js';
import { createAppReader } from './index.js';
import { openInMemory } from './test-support/host-apps.js';
import { fleetHost, hostelHost, schoolHost } from './test-support/measure-hosts.js';
import type { MeasureApp, MeasureTurn } from './test-support/measure-turns.js';
import { MEASURE_TURNS } from './test-support/measure-turns.js';

const NOW = { now: '2026-12-01T09:00:00Z' };

type Verdict = 'right' | 'wrong' | 'unanswered';

function verdictOf(turn: MeasureTurn, plan: TurnPlan): { verdict: Verdict; got: string } {
  const got = JSON.stringify(plan.steps.map((s) => (s.kind === 'compute' ? s.compute : s.kind === 'tool' ? s.selection.arguments : s.kind)));
  if (turn.want === 'unread') return { verdict: plan.outcome === 'run' ? 'wrong' : 'right', got };
  if (turn.want === 'ask') return { verdict: plan.outcome === 'ask' ? 'right' : plan.outcome === 'run' ? 'wrong' : 'unanswered', got };
  if (plan.outcome !== 'run') return { verdict: 'unanswered', got: `${plan.outcome} ${got}` };
  const [read, compute, ...rest] = plan.steps;
  const filters = (read?.selection.arguments as { filters?: unknown } | undefined)?.filters ?? {};
  const same = JSON.stringify(sorted(filters)) === JSON.stringify(sorted(turn.want.filters ?? {})) && JSON.stringify(compute?.compute ?? null) === JSON.stringify(turn.want.compute ?? null) && rest.length === 0;
  return { verdict: same ? 'right' : 'wrong', got };
}

function sorted(value: unknown): unknown {
  return typeof value === 'object' && value !== null ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => a.localeCompare(b))) : value;
}

describe('held-out turns over the fleet, hostel and school', () => {
  const apps = new Map<MeasureApp, { opened: OpenedApp; reader: AppReader }>();
  beforeAll(async () => {
    for (const [name, made] of [['fleet', fleetHost()], ['hostel', hostelHost()], ['school', schoolHost()]] as const) {
      const opened = await openInMemory(made.host);
      const reader = await createAppReader({ app: opened.app, hostTools: opened.tools, vocabulary: made.vocabulary, rulebook: { compute: true }, secret: 'measure-secret-0123456789abcdef' });
      apps.set(name, { opened, reader });
    }
  });
  afterAll(async () => {
    for (const { opened } of apps.values()) await opened.close();
  });

  it('reads no turn wrong, and prints the figures', () => {
    const tally = { right: 0, wrong: 0, unanswered: 0 };
    const lines: string[] = [];
    for (const turn of MEASURE_TURNS) {
      const app = apps.get(turn.app);
      if (app === undefined) throw new Error(turn.app);
      const plan = app.reader.router().plan(turn.turn, { language: turn.language, context: NOW });
      const { verdict, got } = verdictOf(turn, plan);
      tally[verdict] += 1;
      if (verdict !== 'right') lines.push(`${verdict.padEnd(10)} ${turn.app} ${turn.language} "${turn.turn}" → ${got}`);
    }
    const answered = MEASURE_TURNS.length - tally.unanswered;
    process.stdout.write(`${MEASURE_TURNS.length} turns: answered ${answered}, right ${tally.right}, wrong ${tally.wrong}, unanswered ${tally.unanswered}\n${lines.join("\n")}\n`);
    expect(lines.filter((l) => l.startsWith('wrong'))).toEqual([]);
    expect(answered).toBeGreaterThanOrEqual(90);
  });

  it('runs the reads it plans, and the calculation picks the rows meant', async () => {
    const rows = async (name: MeasureApp, turn: string, language: Language = 'en'): Promise<string[]> => {
      const app = apps.get(name);
      if (app === undefined) throw new Error(name);
      const plan = app.reader.router().plan(turn, { language, context: NOW });
      const dispatcher = createDispatcher({ tools: [...app.reader.readTools], app: app.opened.app });
      const results: JsonValue[] = [];
      for (const step of plan.steps) {
        if (step.kind === 'tool' && step.selection.tool !== null) results.push((await dispatcher.dispatch({ name: step.selection.tool, arguments: step.selection.arguments }, { actor: userActor('tester', []) })) as JsonValue);
      }
      const data = (results[0] as { data?: { id: number }[] }).data ?? [];
      const compute = plan.steps.find((s) => s.kind === 'compute');
      if (compute === undefined) return data.map((r) => String(r.id));
      const picked = runCompute(compute, results);
      return 'picked' in picked ? (picked.picked ?? []).map((p) => String(data[p.row]?.id)) : [];
    };
    expect(await rows('school', 'students without a tutor')).toEqual(['2']);
    expect(await rows('hostel', 'which rooms have 2 free beds?')).toEqual(['1', '3']);
    expect(await rows('hostel', 'quartos sem camas livres', 'pt-BR')).toEqual(['2', '4']);
    expect(await rows('hostel', 'which rentals are still open?')).toEqual(['2', '3']);
    expect(await rows('school', 'next class for grade 5')).toEqual(['2']);
    expect(await rows('fleet', 'the last repair')).toEqual(['3']);
    expect(await rows('fleet', 'the oldest truck')).toEqual(['1']);
    expect(await rows('hostel', 'the youngest guest')).toEqual(['2']);
  });

  it('asks which field where two carry the adjective, naming them', () => {
    const plan = apps.get('fleet')?.reader.router().plan('the oldest trailer', { context: NOW });
    expect(plan?.outcome).toBe('ask');
    expect(plan?.steps[0]?.selection.question).toBe('"oldest" by which field: "built year" or "purchased on"?');
  });
});
