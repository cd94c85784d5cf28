/**
 * The router's seam for a reader of data questions (`src/reading/` provides one). The router
 * compiles it once per language and offers it each clause before tool selection: it reads the clause
 * into read and compute steps, says it is about data but cannot be read (so that no host tool takes
 * it), or leaves it to the planner. What a data question is belongs to the reader, not the router.
 */
import type { JsonObject } from '../core/index.js';
import type { Catalogue } from './catalogue.js';
import type { ArgumentSource, ComputeSpec, Language } from './types.js';
import type { LanguageWords } from './vocabulary-types.js';

export interface DataReader {
  /** Null when the catalogue holds nothing this reader plans. */
  compile(input: DataReaderInput): CompiledDataReader | null;
}

export interface DataReaderInput {
  readonly language: Language;
  readonly words: LanguageWords;
  readonly catalogue: Catalogue;
}

export interface CompiledDataReader {
  read(clause: DataClause): DataReading | null;
  /** What a person can ask here, for the rephrase sentence; null when the reader offers nothing. */
  readonly offer: DataOffer | null;
}

/** What can be asked: the things there are to read, in words, and one turn the reader reads. */
export interface DataOffer {
  readonly topics: readonly string[];
  readonly example: string;
  /** More turns to offer, best first (the host's examples this app reads): the sentence quotes up to three. */
  readonly examples?: readonly string[];
}

/** A date phrase of the clause, its offsets relative to the clause, its period as RFC 3339 (null without a clock). */
export interface ClauseDate {
  readonly start: number;
  readonly end: number;
  readonly from: string | null;
  readonly to: string | null;
  /** `YYYY-MM-DD` of `from` and of `to`, for date fields. */
  readonly fromDay: string | null;
  readonly toDay: string | null;
}

/** A read step of the last `run` plan of the session: what a follow-up narrows or pivots. */
export interface PreviousStep {
  readonly tool: string;
  readonly arguments: JsonObject;
  /** The calculation the plan made over this step's result, if any (a follow-up asks the same of its rows). */
  readonly compute?: ComputeSpec;
}

/** The asking person's own rows: the filter on `manager` that picks them (context key `actorRow`, set by the host). */
export interface ActorRowFilter {
  readonly manager: string;
  readonly filter: JsonObject;
}

/** Which words of a clause made which part of a data reading, and what they matched: for `plumb route --explain`. */
export interface DataExplanation {
  readonly clause: string;
  /** `read`: the clause became these steps; `unread`: about data, not readable; `none`: not a data question. */
  readonly outcome: 'read' | 'unread' | 'none';
  /** Each consumed word, the part of the plan it made, and the schema name or derived word it matched. */
  readonly words: readonly { readonly text: string; readonly part: string; readonly matched: string }[];
  /** Words nothing consumed (the reason a clause is not read). */
  readonly unconsumed: readonly string[];
  readonly reason: string | null;
}

export interface DataClause {
  /** The clause as typed and folded (same length). */
  readonly typed: string;
  readonly folded: string;
  readonly language: Language;
  readonly dates: readonly ClauseDate[];
  /** The read steps of the session's last `run` plan, in order; empty for a turn read on its own. */
  readonly previous: readonly PreviousStep[];
  /** The host's clock (`context.now`, RFC 3339), for dates the reader resolves itself; null without one. */
  readonly now: string | null;
  /** The asking person's rows, where the host maps actors to rows; null: first-person words stay unread. */
  readonly actorRow?: ActorRowFilter | null;
  /** Receives the explanation of the clause's reading (`plumb route --explain`); absent, none is built. */
  readonly explain?: (explanation: DataExplanation) => void;
}

export type DataStep =
  | {
      readonly kind: 'tool';
      readonly tool: string;
      readonly arguments: JsonObject;
      readonly decidedBy: string;
      /** Where each argument came from; `turn` where not given. */
      readonly sources?: Readonly<Record<string, ArgumentSource>>;
    }
  /** Over every tool step of the reading before it. */
  | { readonly kind: 'compute'; readonly text: string; readonly decidedBy: string; readonly compute: ComputeSpec }
  /** About the app's data, but not readable: the clause stays unread rather than go to a host tool. */
  | { readonly kind: 'unread'; readonly decidedBy: string }
  /** Read two ways as well (two fields a ranking could be by): the clause asks which, naming them. */
  | { readonly kind: 'ask'; readonly decidedBy: string; readonly question: string; readonly candidates: readonly string[] };

export interface DataReading {
  readonly steps: readonly DataStep[];
  /** Words read as another word of the vocabulary (a typo within the bound): typed → read. */
  readonly readAs?: Readonly<Record<string, string>>;
  /** What each span of the clause matched, for explaining a reading (`plumb route --explain`); the plan does not carry it. */
  readonly words?: readonly DataWord[];
}

/** One span of a read clause and what it matched: a schema name, a word derived from one, a grammar word. */
export interface DataWord {
  /** As typed, with its offsets in the clause. */
  readonly text: string;
  readonly start: number;
  readonly end: number;
  /** Each reading of the span: "manager Course", "value Teacher.country = Kenya (demonym of Teacher.country = Kenya)", "verb (relation Course.teacher (agent noun teacher))", "grammar count". */
  readonly matched: readonly string[];
}
