/** What a word of a data question can mean: the vocabulary's data words and the grammar's. */
import type { JsonObject } from '../core/index.js';
import type { JsonSchema, ReadSpec } from '../router/index.js';
import type { Aggregate, Comparator, Direction, Superlative } from './grammar.js';

export type Meaning =
  | { readonly kind: 'manager'; readonly manager: string; readonly plural: boolean }
  | { readonly kind: 'field'; readonly manager: string; readonly field: string }
  /** `demonym`: said by the country's adjective ("Kenyan" for Kenya), see demonyms.ts. */
  | { readonly kind: 'value'; readonly manager: string; readonly field: string; readonly value: string; readonly demonym?: true }
  /** A relation's verb (relation-verbs.ts): the managers it joins, the one holding the relation, and its agent. */
  | { readonly kind: 'verb'; readonly via: string; readonly sides: readonly string[]; readonly agent: string | null }
  /** A text field's verb ("wrote" for Book.author): asks the field, or confirms a value of it. */
  | { readonly kind: 'agentField'; readonly manager: string; readonly field: string }
  /** "live in", "moram em": goes with a place field's value or question (place-words.ts). */
  | { readonly kind: 'place' }
  /** `after`: said after its value ("2000 or later"). */
  | { readonly kind: 'comparator'; readonly op: Comparator; readonly after?: true }
  | { readonly kind: 'dateBound'; readonly bound: 'after' | 'since' | 'before' | 'until' }
  /** A row's period holding now ("running", "em cartaz"): date-ranges.ts. */
  | { readonly kind: 'current' }
  | { readonly kind: 'between' }
  | { readonly kind: 'count' }
  | { readonly kind: 'aggregate'; readonly op: Aggregate }
  | { readonly kind: 'superlative'; readonly sense: Superlative }
  | { readonly kind: 'degree'; readonly direction: Direction }
  | { readonly kind: 'exists' }
  | { readonly kind: 'how' }
  | { readonly kind: 'negation' }
  /** A state word: `open` the end is empty ("still open"), else it is set ("closed"). */
  | { readonly kind: 'state'; readonly open: boolean }
  /** A verb of making ("made", "created"): before a date, the date the row was made. */
  | { readonly kind: 'made' }
  /** A relation of `manager` said by its name ("tutor"). */
  | { readonly kind: 'relation'; readonly manager: string; readonly relation: string }
  | { readonly kind: 'referent' }
  | { readonly kind: 'replacing' }
  | { readonly kind: 'narrowing' }
  | { readonly kind: 'or' }
  | { readonly kind: 'link' }
  | { readonly kind: 'madeOf' }
  | { readonly kind: 'stop' }
  | { readonly kind: 'numberWord'; readonly value: number }
  | { readonly kind: 'month'; readonly month: number }
  | { readonly kind: 'monthLead' }
  /** A host-named condition of a manager ("overdue"). */
  | { readonly kind: 'condition'; readonly manager: string; readonly name: string; readonly filter: JsonObject }
  /** The asking person ("my", "I", "minhas", "eu"). */
  | { readonly kind: 'firstPerson' };

export type MeaningKind = Meaning['kind'];
export type MeaningOf<K extends MeaningKind> = Extract<Meaning, { kind: K }>;

/** One read entry the reader may plan. */
export interface ReadTarget {
  readonly tool: string;
  readonly spec: ReadSpec;
  readonly schema: JsonSchema;
}

export function sameMeaning(a: Meaning, b: Meaning): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export function meaningOf<K extends MeaningKind>(meanings: readonly Meaning[], kind: K): MeaningOf<K> | undefined {
  return meanings.find((m): m is MeaningOf<K> => m.kind === kind);
}

export function meaningsOf<K extends MeaningKind>(meanings: readonly Meaning[], kind: K): MeaningOf<K>[] {
  return meanings.filter((m): m is MeaningOf<K> => m.kind === kind);
}
