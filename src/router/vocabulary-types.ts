/** The vocabulary as written (YAML or an object) and as the router holds it, per language. */

export interface ToolWordsInput {
  readonly triggers?: readonly string[];
  readonly label?: string;
  /** A phrasing the router reads, offered when a turn is not read. */
  readonly example?: string;
}

export interface ParameterWordsInput {
  readonly cues?: readonly string[];
  readonly label?: string;
}

export interface DateWordsInput {
  readonly weekdays?: Readonly<Record<string, readonly string[]>>;
  readonly days?: Readonly<Record<string, readonly string[]>>;
  readonly day_parts?: Readonly<Record<string, readonly string[]>>;
  readonly spans?: Readonly<Record<string, readonly string[]>>;
  readonly availability?: readonly string[];
}

/** Words for an app's data: managers, fields (`Manager.field`) and values (`Manager.field` → canonical value → words). */
export interface DataWordsInput {
  readonly managers?: Readonly<Record<string, readonly string[]>>;
  readonly fields?: Readonly<Record<string, readonly string[]>>;
  readonly values?: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>>;
}

export interface VocabularyInput {
  /** The words of the app's data, read by the data-read pass. */
  readonly data?: DataWordsInput;
  readonly tools?: Readonly<Record<string, ToolWordsInput>>;
  readonly parameters?: Readonly<Record<string, ParameterWordsInput>>;
  /** Per parameter: canonical value → words that mean it. */
  readonly values?: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>>;
  /** Channel names a turn may name as a destination (`#general`, `slack`). */
  readonly destinations?: { readonly channels?: readonly string[] };
  readonly verbs?: { readonly read?: readonly string[]; readonly write?: readonly string[] };
  readonly connectors?: Readonly<Record<string, readonly string[]>>;
  readonly compute?: Readonly<Record<string, readonly string[]>>;
  readonly dates?: DateWordsInput;
  readonly stopwords?: readonly string[];
  readonly foreign?: readonly string[];
  readonly messages?: Readonly<Record<string, string>>;
}

export interface VocabularyFile {
  readonly settings?: { readonly language?: string };
  readonly languages?: Readonly<Record<string, VocabularyInput>>;
}

/** One language's words, merged with the defaults and folded (lower case, no accents). */
export interface LanguageWords {
  readonly tools: Readonly<Record<string, { readonly triggers: readonly string[]; readonly label: string | null; readonly example: string | null }>>;
  readonly parameters: Readonly<Record<string, { readonly cues: readonly string[]; readonly label: string | null }>>;
  readonly values: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>>;
  readonly channels: readonly string[];
  readonly readVerbs: readonly string[];
  readonly writeVerbs: readonly string[];
  readonly connectors: Readonly<Record<string, readonly string[]>>;
  readonly compute: Readonly<Record<string, readonly string[]>>;
  readonly weekdays: Readonly<Record<string, readonly string[]>>;
  readonly days: Readonly<Record<string, readonly string[]>>;
  readonly dayParts: Readonly<Record<string, readonly string[]>>;
  readonly spans: Readonly<Record<string, readonly string[]>>;
  readonly availability: readonly string[];
  readonly stopwords: ReadonlySet<string>;
  readonly foreign: readonly string[];
  readonly messages: Readonly<Record<string, string>>;
  /** The data words, folded: manager → words, `Manager.field` → words, `Manager.field` → canonical value → words. */
  readonly data: {
    readonly managers: Readonly<Record<string, readonly string[]>>;
    readonly fields: Readonly<Record<string, readonly string[]>>;
    readonly values: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>>;
  };
}
