import type { JsonObject, JsonValue } from '../core/index.js';

/** What a tool does to the world: a read changes nothing, a write can be undone, an irreversible step cannot. */
export type Effect = 'read' | 'write' | 'irreversible';
export const EFFECTS: readonly Effect[] = ['read', 'write', 'irreversible'];

/** A JSON Schema as data: the subset the router reads (types, formats, enums, required, items). */
export interface JsonSchema {
  readonly type?: string | readonly string[];
  readonly format?: string;
  readonly enum?: readonly JsonValue[];
  readonly description?: string;
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly required?: readonly string[];
  readonly items?: JsonSchema;
  readonly default?: JsonValue;
  readonly pattern?: string;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly additionalProperties?: boolean;
}

/** One tool as the router sees it: data only, never a handler. */
export interface CatalogueEntry {
  readonly name: string;
  readonly description: string;
  readonly parameters: JsonSchema;
  readonly effect: Effect;
  /** The result field a later step can use as this thing's identity (`id` where not given). */
  readonly outputs?: { readonly identity?: string; readonly fields?: readonly string[] };
  /** For a write or an irreversible step: the tool that undoes it, if any. */
  readonly undo?: string;
  /** A data read: planned only by the router's data-read pass, never by generic tool selection. */
  readonly reads?: ReadSpec;
  /** Checked (model-proposed calls) but never planned by the router. */
  readonly checkOnly?: boolean;
}

export type ReadFieldType = 'string' | 'text' | 'integer' | 'decimal' | 'float' | 'boolean' | 'date' | 'datetime' | 'enum';
export const READ_FIELD_TYPES: readonly ReadFieldType[] = ['string', 'text', 'integer', 'decimal', 'float', 'boolean', 'date', 'datetime', 'enum'];

/** What a data-read entry reads: one manager's scalar fields, and every filter the data-read pass may use. */
export interface ReadSpec {
  /** The manager read: `Part`. */
  readonly manager: string;
  /** Scalar fields a plan selects (`id`, `name`, `sku`, …). */
  readonly fields: readonly string[];
  /** Every filter the pass may use: own fields and fields through relations (depth ≤ 2). */
  readonly lookups: readonly ReadLookup[];
  /** Relations of the subject to many rows (`many`, `manyToMany`): what "the most Y" counts. */
  readonly many?: readonly string[];
}

/** One filter a data read may use: a field of the subject or of a manager its relations reach. */
export interface ReadLookup {
  /** The lookup path without operator: `name`, `material__name`, `parts__material__name`. */
  readonly key: string;
  /** The manager that owns the field: `Material`. */
  readonly manager: string;
  readonly field: string;
  readonly type: ReadFieldType;
  /** Relation names walked from the subject: `['parts', 'material']`. */
  readonly through: readonly string[];
  /** The field may be empty (it takes `__isnull`): "loans not returned" reads `returnedOn__isnull`. */
  readonly nullable?: boolean;
}

export type Language = 'en' | 'pt-BR';
export const LANGUAGES: readonly Language[] = ['en', 'pt-BR'];

export type Outcome = 'run' | 'ask' | 'declined' | 'unread';
export const OUTCOMES: readonly Outcome[] = ['run', 'ask', 'declined', 'unread'];
export type StepKind = 'tool' | 'ask' | 'compute' | 'decline' | 'unread';
export type OnUnread = 'model' | 'refuse';
/**
 * What a compute step does over the results it depends on: arithmetic (count … percentage), whether
 * any row is there (`exists`), or the rows with the highest or lowest value of a field (`top`, `bottom`).
 */
export type ComputeOperation = 'count' | 'sum' | 'average' | 'minimum' | 'maximum' | 'difference' | 'ratio' | 'percentage' | 'exists' | 'top' | 'bottom';

/** What a compute step computes over the results of the steps it depends on. */
export interface ComputeSpec {
  readonly operation: ComputeOperation;
  /** The field it is over (`total`); null: the count, or the one numeric field of each row. */
  readonly field: string | null;
  /** For `top` and `bottom`: how many rows (ties with the last one kept). */
  readonly rows?: number;
}

/**
 * Where an argument came from: the turn, the answer to a question, the session's context, step N's
 * result, or the session's previous plan (a follow-up that narrows or pivots it).
 */
export type ArgumentSource = 'turn' | 'reply' | 'context' | 'previous' | `step ${number}`;

export interface Selection {
  readonly tool: string | null;
  readonly arguments: JsonObject;
  readonly sources: Readonly<Record<string, ArgumentSource>>;
  readonly missing: readonly string[];
  readonly candidates: readonly string[];
  readonly question: string | null;
}

export interface PlanItem {
  readonly kind: StepKind;
  readonly text: string;
  readonly decidedBy: string;
  readonly dependsOn: readonly number[];
  readonly selection: Selection;
  /** Parameters whose value is step N's result identity (`{ "project_id": 0 }`). */
  readonly supplied: Readonly<Record<string, number>>;
  /** For a write: the sentence a person confirms, with the exact arguments. */
  readonly confirmation: string | null;
  /** For a compute step: what it computes over the results of `dependsOn`. */
  readonly compute: ComputeSpec | null;
  /** Words read as another word of the vocabulary (a typo within the bound): typed → read; absent when none. */
  readonly readAs?: Readonly<Record<string, string>>;
}

export type GuidanceNext = 'Rephrase' | 'Defer';

export interface Guidance {
  readonly next: GuidanceNext | null;
  readonly render: string | null;
  readonly evidence: readonly string[];
}

/**
 * A call another tool could make to produce what an asking step is missing. Links are listed round by
 * round: a link of round N takes, for each parameter in `supplied`, the one value link `supplied[p]`
 * (an earlier round) produced; `feeds` names the link that takes this one's value (null: the step's
 * `parameter` itself).
 */
export interface ChainLink {
  readonly step: number;
  /** The parameter this call's value fills: the asking step's where `feeds` is null, else link `feeds`'s. */
  readonly parameter: string;
  readonly tool: string;
  readonly arguments: JsonObject;
  readonly identity: string;
  readonly round: number;
  readonly supplied: Readonly<Record<string, number>>;
  readonly feeds: number | null;
}

export interface SagaLink {
  readonly irreversible: number;
  readonly writes: readonly number[];
}

export interface TurnPlan {
  readonly outcome: Outcome;
  readonly language: Language;
  readonly turn: string;
  readonly steps: readonly PlanItem[];
  readonly guidance: Guidance | null;
  readonly declinedBecause: string | null;
  readonly toModel: readonly number[];
  readonly saga: readonly SagaLink[];
  readonly chain: readonly ChainLink[];
  readonly catalogueVersion: string;
  readonly vocabularyDigest: string;
  /** Which read of the session made it (0 for a plan read on its own). */
  readonly index: number;
}

/** What the host knows and the router may use: `now` (RFC 3339 with offset) and values such as the signed-in customer. */
export type RouterContext = JsonObject & { readonly now?: string };
