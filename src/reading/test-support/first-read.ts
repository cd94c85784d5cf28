/** The first read step a reader plans for a turn (its tool and filters), or null when the turn does not run. */
import type { Language, TurnPlan } from '../../router/index.js';
import type { AppReader } from '../index.js';

export function firstRead(reader: AppReader, turn: string, language: Language): { tool: string | undefined; filters: unknown } | null {
  const p: TurnPlan = reader.router().plan(turn, { language, context: { now: '2026-12-01T09:00:00Z' } });
  if (p.outcome !== 'run') return null;
  const args = p.steps[0]?.selection.arguments as { filters?: unknown };
  return { tool: p.steps[0]?.selection.tool ?? undefined, filters: args.filters };
}
