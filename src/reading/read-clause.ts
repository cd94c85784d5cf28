/**
 * One clause read as a data question: a schema question first, else the clause's spans bound into a
 * question, resolved on its subject (or on the previous turn's read, for a follow-up), and written as
 * the read step and the calculation its form asks for. Null: not a data question, the planner reads
 * it; an unread reading: a data question this reader cannot answer (a referent with nothing to refer
 * to), which no host tool may take either.
 */
import type { JsonValue } from '../core/index.js';
import type { DataClause, DataReading, DataStep } from '../router/index.js';
import { foldPhrase } from '../router/index.js';
import { chooseStep } from './choose-field.js';
import { boundedByNow } from './next-last.js';
import type { CompiledReads } from './compile-reads.js';
import type { FollowUp } from './follow-up.js';
import { followUpOf, previousRead } from './follow-up.js';
import { findMonths, findYears } from './months.js';
import { bindQuestion } from './question.js';
import type { Question } from './question.js';
import type { Form, ReadContext, Resolved } from './resolve.js';
import { explanationOf } from './explain.js';
import type { Span } from './spans.js';
import { countedRelations, resolveOn, subjectOf, validArguments } from './resolve.js';
import type { SchemaQuestions } from './schema-questions.js';
import { findSpans } from './spans.js';
import { isNumberField } from './lookups.js';
import type { ReadTarget } from './meanings.js';
import { valueNounManagers } from './value-nouns.js';
import { wordRecords } from './word-records.js';

export function readClause(reads: CompiledReads, schema: SchemaQuestions | null, clause: DataClause): DataReading | null {
  const read = readWords(reads, schema, clause);
  if (clause.explain !== undefined) clause.explain(explanationOf(clause, read, reads.derived));
  return read.reading;
}

/** What reading a clause came to, with what the explanation is built from. */
export interface ClauseRead {
  readonly reading: DataReading | null;
  readonly spans: readonly Span[] | null;
  readonly resolved: Resolved | null;
  readonly context: ReadContext;
}

function readWords(reads: CompiledReads, schema: SchemaQuestions | null, clause: DataClause): ClauseRead {
  const context: ReadContext = { now: clause.now, actor: clause.actorRow ?? null };
  const none = (spans: readonly Span[] | null = null): ClauseRead => ({ reading: null, spans, resolved: null, context });
  const asked = schema?.read(clause.folded) ?? null;
  if (asked !== null) return { ...none(), reading: { steps: [{ kind: 'tool', tool: asked.tool, arguments: asked.arguments, decidedBy: asked.decidedBy }] } };
  const periods = [...findMonths(clause.folded, reads.grammar, clause.now), ...findYears(clause.folded, reads.grammar, clause.now)];
  const found = findSpans(reads, clause.typed, clause.folded, clause.dates, periods);
  if (found === null) return none();
  const q = bindQuestion(found.spans, clause.folded, (field) => isNumberField(reads, field.manager, field.field));
  if (q === null || hostReads(reads, q)) return none(found.spans);
  const readAs = { ...(Object.keys(found.readAs).length > 0 ? { readAs: canonical(reads, found.readAs) } : {}), words: wordRecords(reads, found.spans) };
  const done = (resolved: Resolved, rule: string, carried: boolean): ClauseRead => {
    const steps = stepsOf(resolved, rule, carried);
    return { reading: steps === null ? null : { steps, ...readAs }, spans: found.spans, resolved: steps === null ? null : resolved, context };
  };
  const stays = (rule: string): ClauseRead => ({ reading: unread(rule), spans: found.spans, resolved: null, context });
  const followUp = q.referent || q.replacing || q.narrowing || q.possessiveManager;
  const previous = followUp ? previousRead(reads, clause.previous) : null;
  if (followUp && previous !== null) {
    const read: FollowUp = followUpOf(q, reads, previous, context);
    if (read !== 'new') {
      if (read === null) return q.referent || q.possessiveManager ? stays('U9 referent') : mine(q, context) ?? none(found.spans);
      return done(read.resolved, `D2 follow-up ${read.kind}`, true);
    }
  } else if (q.referent) {
    // "which parts do they use?" with nothing the previous turn read to refer to: unread, not every part.
    return subjectOf(q, reads) === null && q.managers.length === 0 ? none(found.spans) : stays('U9 referent');
  }
  const target = subjectOf(q, reads);
  if (target === null) {
    const nouns = readValueNouns(q, reads, readAs, context);
    return nouns === null ? (mine(q, context) ?? none(found.spans)) : { reading: nouns, spans: found.spans, resolved: null, context };
  }
  const read = resolveOn(q, reads, target, context);
  const resolved = read === null || q.rank?.when == null || read.form?.kind !== 'rank' ? read : boundedByNow(read, q.rank.when, clause.now);
  if (resolved === null) return mine(q, context) ?? twoRelations(q, reads, target, context) ?? none(found.spans);
  if (lonelySingular(q, resolved)) return none(found.spans);
  if (resolved.form?.kind === 'choose') return { reading: { steps: [chooseStep(reads, target, resolved.form.fields, resolved.form.text)] }, spans: found.spans, resolved, context };
  return done(resolved, 'D1 read', false);
}

/** "which actor has the most roles?" where an actor has roles two ways (acts, understudies): unread, naming both. */
function twoRelations(q: Question, reads: CompiledReads, target: ReadTarget, context: ReadContext): ClauseRead | null {
  const relations = q.rank?.related == null ? [] : countedRelations(reads, target, q.rank.related.manager);
  return relations.length > 1 ? { reading: unread(`U15 two relations ${relations.join(', ')}`), spans: null, resolved: null, context } : null;
}

/** "show my bookings" that cannot be narrowed to the asking person's rows: unread, never everyone's rows. */
function mine(q: Question, context: ReadContext): ClauseRead | null {
  if (!q.firstPerson) return null;
  return { reading: unread(context.actor === null ? 'U14 first person: no row for this actor' : 'U14 first person: no relation to the actor row'), spans: null, resolved: null, context };
}

/**
 * "list the vans": a class value said as the noun makes its manager the subject. Found in two
 * managers, a list reads both; any other form is two readings of equal strength, and stays unread.
 */
function readValueNouns(q: Question, reads: CompiledReads, readAs: Pick<DataReading, 'readAs' | 'words'>, context: ReadContext): DataReading | null {
  const managers = valueNounManagers(q, reads);
  const readings = managers.flatMap((manager) => {
    const resolved = resolveOn(q, reads, reads.targets.get(manager) as ReadTarget, context);
    return resolved === null ? [] : [resolved];
  });
  if (readings.length === 0) return null;
  if (readings.length > 1 && readings.some((r) => r.form !== null)) return unread(`U13 two readings ${managers.join(', ')}`);
  const steps = readings.map((r) => stepsOf(r, 'D1 read', false));
  return steps.some((s) => s === null) ? null : { steps: steps.flatMap((s) => s ?? []), ...readAs };
}

/** "order 4411" where a host read tool takes an order by number: the host tool's to read. */
function hostReads(reads: CompiledReads, q: Question): boolean {
  if (q.ids === null) return false;
  const noun = foldPhrase(q.ids.text);
  return reads.hostNouns.has(noun) || reads.hostNouns.has(noun.replace(/s$/, ''));
}

/** "show me order": a manager named in the singular with nothing that picks rows asks for one row, the host tools' to read. */
function lonelySingular(q: Question, resolved: Resolved): boolean {
  const first = q.managers.find((m) => m.first)?.meaning;
  return first !== undefined && !first.plural && Object.keys(resolved.filters).length === 0 && Object.keys(resolved.exclude).length === 0 && resolved.form === null;
}

/** The read step, then the calculation the form asks for; null when the read's arguments do not validate. */
function stepsOf(resolved: Resolved, rule: string, carried: boolean): DataStep[] | null {
  const { target, filters, exclude, form } = resolved;
  const fields: JsonValue[] = form?.kind === 'attribute' ? [...form.fields] : [...target.spec.fields];
  // A ranking by a count of related rows reads their ids with each row.
  if (form?.kind === 'rank' && form.counted !== undefined) fields.push(form.counted.reduceRight<JsonValue>((inner, relation) => ({ [relation]: [inner] }), 'id'));
  const args: Record<string, JsonValue> = { fields };
  if (Object.keys(filters).length > 0) args['filters'] = { ...filters };
  if (Object.keys(exclude).length > 0) args['exclude'] = { ...exclude };
  if (!validArguments(target, args)) return null;
  const keys = [...Object.keys(filters), ...Object.keys(exclude).map((k) => `not ${k}`)];
  const sources = carried ? Object.fromEntries(Object.keys(args).filter((k) => k !== 'fields').map((k) => [k, 'previous' as const])) : {};
  const read: DataStep = {
    kind: 'tool',
    tool: target.tool,
    arguments: args,
    decidedBy: `${rule} ${target.spec.manager}${keys.length > 0 ? ` by ${keys.join(', ')}` : ''}${form?.kind === 'attribute' ? ` asking ${form.asked.join(',')}` : ''}`,
    ...(carried ? { sources } : {}),
  };
  const compute = computeOf(form);
  return compute === null ? [read] : [read, compute];
}

function computeOf(form: Form | null): DataStep | null {
  if (form === null) return null;
  switch (form.kind) {
    case 'list':
    case 'attribute':
    case 'choose':
      return null;
    case 'count':
      return { kind: 'compute', text: form.text, decidedBy: 'C1 count', compute: { operation: 'count', field: null } };
    case 'exists':
      return { kind: 'compute', text: form.text, decidedBy: 'C1 exists', compute: { operation: 'exists', field: null } };
    case 'aggregate':
      return { kind: 'compute', text: form.text, decidedBy: `C1 ${form.op} ${form.field}`, compute: { operation: form.op, field: form.field } };
    case 'rank':
      return { kind: 'compute', text: form.text, decidedBy: `C1 ${form.direction} ${form.rows} ${form.counted !== undefined ? `count of ${form.counted.join('.')}` : form.field}`, compute: { operation: form.direction, field: form.field, rows: form.rows } };
  }
}

/** A typo's reading as the person would write it: a value as stored ("Steel"), another word as it is. */
function canonical(reads: CompiledReads, readAs: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [typed, word] of Object.entries(readAs)) {
    const meaning = reads.meanings.get(word)?.find((m) => m.kind === 'value');
    out[typed] = meaning?.kind === 'value' ? meaning.value : word;
  }
  return out;
}

function unread(rule: string): DataReading {
  return { steps: [{ kind: 'unread', decidedBy: rule }] };
}
