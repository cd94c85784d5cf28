/**
 * The explanation of one clause's data reading (`plumb route --explain`): each span of words, the
 * part of the plan it made (the subject, a filter key, the question's form, glue) and what it matched
 * (a manager, a field, a value, a host's condition, the actor's row, a grammar word); for a clause the
 * reader did not take, the words nothing consumed. Built from the spans and the resolved read, so a
 * family that adds meanings is explained without a word of its own here.
 */
import type { JsonValue } from '../core/index.js';
import type { DataClause, DataExplanation } from '../router/index.js';
import { foldPhrase, tokenize } from '../router/index.js';
import { baseKey } from './lookups.js';
import type { Meaning } from './meanings.js';
import type { ClauseRead } from './read-clause.js';
import type { DerivedWord } from './relation-verbs.js';
import type { Resolved } from './resolve.js';
import type { Span } from './spans.js';
import { describeMeaning } from './word-records.js';

type Word = DataExplanation['words'][number];

export function explanationOf(clause: DataClause, read: ClauseRead, derived: ReadonlyMap<string, readonly DerivedWord[]>): DataExplanation {
  const step = read.reading?.steps[0];
  const outcome = read.reading === null ? 'none' : step?.kind === 'unread' ? 'unread' : 'read';
  const spans = read.spans ?? [];
  const words = spans.map((span) => wordOf(span, read.resolved, derived));
  const covered = (start: number, end: number): boolean => spans.some((s) => start >= s.start && end <= s.end);
  const unconsumed = tokenize(clause.folded)
    .filter((token) => !covered(token.start, token.end))
    .map((token) => clause.typed.slice(token.start, token.end));
  const reason =
    step?.kind === 'unread' ? step.decidedBy
    : outcome === 'read' ? null
    : unconsumed.length > 0 ? 'words no data word, grammar word or value takes'
    : spans.length > 0 ? 'the words do not bind into one question over one manager'
    : null;
  return { clause: clause.typed, outcome, words, unconsumed, reason };
}

function wordOf(span: Span, resolved: Resolved | null, derived: ReadonlyMap<string, readonly DerivedWord[]>): Word {
  if (span.date !== null) return { text: span.text, part: partOfValue(resolved, [span.date.fromDay, span.date.from, span.date.toDay, span.date.to]) ?? 'date', matched: `date ${span.date.fromDay ?? span.date.from ?? '?'} … ${span.date.toDay ?? span.date.to ?? '?'}` };
  if (span.number !== null) return { text: span.text, part: partOfValue(resolved, [span.number]) ?? 'number', matched: `number ${span.number}` };
  if (span.adjective !== null && span.meanings.length === 0) return { text: span.text, part: formPart(resolved) ?? 'adjective', matched: `adjective ${span.adjective}` };
  const meaning = chosen(span.meanings, resolved);
  if (meaning === undefined) return { text: span.text, part: 'glue', matched: 'nothing' };
  // A derived word says the schema name it came from ("relation Staff.ward (general verb: workplace)").
  const from = derived.get(foldPhrase(span.text))?.find((d) => JSON.stringify(d.meaning) === JSON.stringify(meaning))?.from;
  return { text: span.text, part: partOf(meaning, resolved), matched: from === undefined ? matchedOf(meaning) : `${matchedOf(meaning)} (${from})` };
}

/** Of a span's meanings, the one the read used (the subject, a filter's field or value), else the first. */
function chosen(meanings: readonly Meaning[], resolved: Resolved | null): Meaning | undefined {
  if (resolved === null) return meanings[0];
  return meanings.find((m) => partOf(m, resolved) !== kindPart(m)) ?? meanings[0];
}

function partOf(meaning: Meaning, resolved: Resolved | null): string {
  if (resolved === null) return kindPart(meaning);
  const manager = resolved.target.spec.manager;
  switch (meaning.kind) {
    case 'manager':
      return meaning.manager === manager ? `subject ${manager}` : `through ${meaning.manager}`;
    case 'field': {
      const key = keyOf(resolved, (k) => lastField(k) === meaning.field);
      if (key !== null) return key;
      return formPart(resolved) ?? `fields ${meaning.field}`;
    }
    case 'value': {
      const key = keyOf(resolved, (k, v) => lastField(k) === meaning.field && holds(v, meaning.value));
      return key ?? kindPart(meaning);
    }
    case 'condition':
      return meaning.manager === manager ? `filter ${Object.keys(meaning.filter).join(', ')}` : kindPart(meaning);
    case 'firstPerson':
      return 'filter: the actor row';
    case 'count':
    case 'aggregate':
    case 'superlative':
    case 'degree':
    case 'exists':
    case 'how':
      return formPart(resolved) ?? kindPart(meaning);
    default:
      return kindPart(meaning);
  }
}

function kindPart(meaning: Meaning): string {
  switch (meaning.kind) {
    case 'stop':
    case 'link':
    case 'monthLead':
      return 'glue';
    case 'referent':
    case 'replacing':
    case 'narrowing':
      return 'follow-up';
    default:
      return meaning.kind;
  }
}

function matchedOf(meaning: Meaning): string {
  switch (meaning.kind) {
    case 'manager': return `manager ${meaning.manager}`;
    case 'field': return `field ${meaning.manager}.${meaning.field}`;
    case 'value': return `value ${meaning.manager}.${meaning.field} = ${meaning.value}`;
    case 'condition': return `condition ${meaning.manager}.${meaning.name} ${JSON.stringify(meaning.filter)}`;
    case 'firstPerson': return 'the first person (actorRow)';
    case 'comparator': return `comparator ${meaning.op}${meaning.after === true ? ' after its value' : ''}`;
    case 'dateBound': return `date bound ${meaning.bound}`;
    case 'aggregate': return `total ${meaning.op}`;
    case 'superlative': return `superlative ${meaning.sense.direction} by ${meaning.sense.by}`;
    case 'degree': return `degree ${meaning.direction}`;
    case 'numberWord': return `number ${meaning.value}`;
    case 'verb':
    case 'agentField':
    case 'place': return describeMeaning(meaning);
    case 'month': return `month ${meaning.month}`;
    default: return `grammar ${meaning.kind}`;
  }
}

function formPart(resolved: Resolved | null): string | null {
  const form = resolved?.form;
  if (form == null || form.kind === 'list') return null;
  switch (form.kind) {
    case 'count': return 'form count';
    case 'exists': return 'form yes/no';
    case 'aggregate': return `form ${form.op} ${form.field}`;
    case 'rank': return `form ${form.direction} ${form.rows} by ${form.field}`;
    case 'attribute': return `form attribute ${form.asked.join(', ')}`;
    case 'choose': return `form choose between ${form.fields.join(', ')}`;
  }
}

/** The filter or exclusion key, with its value, that a test picks: `filter dueOn__lt`, `exclude status`. */
function keyOf(resolved: Resolved, test: (key: string, value: JsonValue) => boolean): string | null {
  for (const [key, value] of Object.entries(resolved.filters)) if (test(key, value)) return `filter ${key}`;
  for (const [key, value] of Object.entries(resolved.exclude)) if (test(key, value)) return `exclude ${key}`;
  return null;
}

function partOfValue(resolved: Resolved | null, values: readonly (string | number | null)[]): string | null {
  if (resolved === null) return null;
  return keyOf(resolved, (_key, value) => values.some((v) => v !== null && holds(value, v)));
}

function lastField(key: string): string {
  return baseKey(key).split('__').at(-1) ?? key;
}

function holds(value: JsonValue, wanted: string | number): boolean {
  if (Array.isArray(value)) return value.some((v: JsonValue) => holds(v, wanted));
  return value === wanted || ((typeof value === 'string' || typeof value === 'number') && String(value) === String(wanted));
}
