/** Plans and step items for the renderer's tests, shaped as the router writes them. */
import type { JsonObject, JsonValue } from '../core/index.js';
import type { ComputeOperation, Language, Outcome, PlanItem, StepKind, TurnPlan } from '../router/index.js';
import { renderAnswer } from './index.js';
import type { RowLabel } from './index.js';
import { formatDate, formatDateTime, formatNumber } from './locale.js';

export interface StepSpec {
  readonly kind?: StepKind;
  readonly text?: string;
  readonly decidedBy?: string;
  readonly tool?: string | null;
  readonly arguments?: JsonObject;
  readonly dependsOn?: readonly number[];
  readonly confirmation?: string | null;
  readonly question?: string | null;
  readonly compute?: { readonly operation: ComputeOperation; readonly field: string | null } | null;
}

export function item(spec: StepSpec = {}): PlanItem {
  return {
    kind: spec.kind ?? 'tool',
    text: spec.text ?? '',
    decidedBy: spec.decidedBy ?? 'T1 trigger',
    dependsOn: spec.dependsOn ?? [],
    selection: { tool: spec.tool ?? null, arguments: spec.arguments ?? {}, sources: {}, missing: [], candidates: [], question: spec.question ?? null },
    supplied: {},
    confirmation: spec.confirmation ?? null,
    compute: spec.compute ?? null,
  };
}

export function plan(outcome: Outcome, language: Language, turn: string, steps: readonly PlanItem[], extra: Partial<TurnPlan> = {}): TurnPlan {
  return {
    outcome,
    language,
    turn,
    steps,
    guidance: null,
    declinedBecause: null,
    toModel: [],
    saga: [],
    chain: [],
    catalogueVersion: 'test',
    vocabularyDigest: 'test',
    index: 0,
    ...extra,
  };
}

/** The demo's row labels in Portuguese, as the app reader gives them. */
export function ptLabel(tool: string, language: Language, count: number): string | null {
  if (language !== 'pt-BR') return null;
  const words: Record<string, [string, string]> = {
    query_part: ['peça', 'peças'],
    query_material: ['material', 'materiais'],
    query_task: ['tarefa', 'tarefas'],
    query_order: ['pedido', 'pedidos'],
    query_project: ['projeto', 'projetos'],
    list_events: ['evento', 'eventos'],
  };
  const pair = words[tool];
  return pair === undefined ? null : count === 1 ? pair[0] : pair[1];
}

/** A run plan of one tool step and its result, rendered. */
export function oneStep(
  language: Language,
  turn: string,
  tool: string,
  args: JsonObject,
  result: JsonValue,
  spec: StepSpec = {},
  label: RowLabel | undefined = ptLabel,
): string {
  return renderAnswer({
    language,
    ...(label === undefined ? {} : { label }),
    plan: plan('run', language, turn, [item({ tool, arguments: args, text: turn, ...spec })]),
    steps: [{ kind: 'tool', tool, arguments: args, result }],
  });
}

// A number as written in either locale: "5,000.00", "5.000,00", "74", "04".
export const NUMBER = /\d+(?:[.,]\d+)*/g;

/** Every number a value may be written as: as stored, and as the locale writes a number or a date. */
export function heldNumbers(value: JsonValue, language: Language, into: Set<string>): void {
  if (value === null || typeof value === 'boolean') return;
  if (Array.isArray(value)) return (value as readonly JsonValue[]).forEach((v) => heldNumbers(v, language, into));
  if (typeof value === 'object') return Object.values(value).forEach((v: JsonValue) => heldNumbers(v, language, into));
  const text = String(value);
  for (const form of [text, formatNumber(value, language), formatDate(text, language), formatDateTime(text, language)]) {
    for (const number of form.match(NUMBER) ?? []) into.add(number);
  }
}
