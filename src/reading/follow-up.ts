/**
 * A follow-up read from the previous turn's plan: "and the aluminum ones?" replaces a value of the
 * same filter, "only the open ones" and "which of them cost more than 5?" narrow the previous rows,
 * "which projects use them?" pivots to a related manager by walking one relation back to them. The
 * previous plan is all it reads (its results are the person's to see); a referent it cannot resolve
 * leaves the turn unread, never dropped.
 */
import type { JsonValue } from '../core/index.js';
import type { PreviousStep } from '../router/index.js';
import type { CompiledReads } from './compile-reads.js';
import { baseKey, relationTo } from './lookups.js';
import type { ReadTarget } from './meanings.js';
import type { Question } from './question.js';
import type { Form, Resolved } from './resolve.js';
import type { ReadContext } from './resolve.js';
import { askedOf, resolveOn, validArguments } from './resolve.js';

/** The previous turn's last data read, as this reader planned it. */
export interface PreviousRead {
  readonly target: ReadTarget;
  readonly filters: Readonly<Record<string, JsonValue>>;
  readonly exclude: Readonly<Record<string, JsonValue>>;
  readonly form: Form | null;
}

export type FollowUp = { readonly kind: 'replace' | 'narrow' | 'pivot'; readonly resolved: Resolved } | 'new' | null;

export function previousRead(reads: CompiledReads, previous: readonly PreviousStep[]): PreviousRead | null {
  for (let i = previous.length - 1; i >= 0; i--) {
    const step = previous[i] as PreviousStep;
    const target = reads.byTool.get(step.tool);
    if (target === undefined) continue;
    const args = step.arguments;
    const compute = step.compute;
    let form: Form | null = null;
    if (compute != null) {
      if (compute.operation === 'count') form = { kind: 'count', text: '' };
      else if (compute.operation === 'exists') form = { kind: 'exists', text: '' };
      else if ((compute.operation === 'top' || compute.operation === 'bottom') && compute.field !== null) form = { kind: 'rank', direction: compute.operation, field: compute.field, rows: compute.rows ?? 1, text: '' };
      else if (['sum', 'average', 'minimum', 'maximum'].includes(compute.operation) && compute.field !== null) form = { kind: 'aggregate', op: compute.operation as 'sum', field: compute.field, text: '' };
    } else if (Array.isArray(args['fields']) && JSON.stringify(args['fields']) !== JSON.stringify(target.spec.fields)) {
      form = { kind: 'attribute', fields: args['fields'], asked: askedOf(args['fields']) };
    }
    return { target, filters: objectOf(args['filters']), exclude: objectOf(args['exclude']), form };
  }
  return null;
}

/** The question read on the previous read; `new` when it names another manager and refers to nothing. */
export function followUpOf(q: Question, reads: CompiledReads, previous: PreviousRead, context: ReadContext): FollowUp {
  const named = q.managers.find((m) => m.first)?.meaning.manager;
  if (named !== undefined && named !== previous.target.spec.manager) {
    // "and their courses?": the possessive keeps the referent as "them" does.
    if (!q.referent && !q.possessiveManager) return 'new';
    return pivot(q, reads, previous, named, context);
  }
  const own = resolveOn(q, reads, previous.target, context);
  if (own === null) return null;
  if (Object.keys(own.filters).length === 0 && Object.keys(own.exclude).length === 0 && own.form === null) return null;
  const kind = q.replacing && !q.narrowing ? 'replace' : 'narrow';
  return {
    kind,
    resolved: {
      target: previous.target,
      filters: merged(previous.filters, own.filters),
      exclude: merged(previous.exclude, own.exclude),
      form: own.form ?? previous.form,
    },
  };
}

/** "which projects use them?": the previous filters walked from the named manager through its one relation to them. */
function pivot(q: Question, reads: CompiledReads, previous: PreviousRead, named: string, context: ReadContext): FollowUp {
  const target = reads.targets.get(named);
  if (target === undefined || Object.keys(previous.exclude).length > 0) return null;
  const relation = relationTo(target, previous.target.spec.manager);
  if (relation === null) return null;
  const keys = new Set(target.spec.lookups.map((l) => l.key));
  const every = Object.keys(previous.filters).length === 0 ? everyRelated(target, relation) : {};
  if (every === null) return null;
  const filters: Record<string, JsonValue> = { ...every };
  for (const [key, value] of Object.entries(previous.filters)) {
    const rooted = `${relation}__${key}`;
    if (!keys.has(baseKey(rooted))) return null;
    filters[rooted] = value;
  }
  // "quais projetos usam essas peças?": the previous rows' own noun is the referent, not another filter.
  const managers = q.managers.filter((m) => m.first || m.meaning.manager !== previous.target.spec.manager);
  const own = resolveOn({ ...q, managers }, reads, target, context);
  if (own === null) return null;
  return { kind: 'pivot', resolved: { target, filters: merged(filters, own.filters), exclude: own.exclude, form: own.form } };
}

/**
 * The rows related to every row of an unfiltered previous read ("list the teachers" … "and their
 * courses?"): through a foreign key the subject holds, the rows where it is set (`teacher__isnull:
 * false`), or every row where it may not be empty; null through a list relation (no key says it).
 */
function everyRelated(target: ReadTarget, relation: string): Record<string, JsonValue> | null {
  const probe = (filters: Record<string, JsonValue>): boolean => validArguments(target, { fields: [...target.spec.fields], filters });
  if (probe({ [`${relation}__isnull`]: false })) return { [`${relation}__isnull`]: false };
  return probe({ [relation]: 1 }) || probe({ [relation]: '1' }) ? {} : null;
}

/** Later filters over earlier ones: a value replaces the earlier value of its field, a bound the same bound. */
function merged(earlier: Readonly<Record<string, JsonValue>>, later: Readonly<Record<string, JsonValue>>): Record<string, JsonValue> {
  const out: Record<string, JsonValue> = { ...earlier };
  for (const key of Object.keys(later)) {
    const bound = /__(?:gt|gte|lt|lte)$/.test(key);
    for (const existing of Object.keys(out)) if (existing === key || (!bound && !/__(?:gt|gte|lt|lte)$/.test(existing) && baseKey(existing) === baseKey(key))) delete out[existing];
  }
  return { ...out, ...later };
}

function objectOf(value: JsonValue | undefined): Record<string, JsonValue> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? { ...(value as Record<string, JsonValue>) } : {};
}
