import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { canonicalHash, PlumbError } from '../core/index.js';
import { DEFAULT_WORDS } from './default-words.js';
import type { Language } from './types.js';
import { LANGUAGES } from './types.js';
import { foldPhrase } from './text.js';
import type { LanguageWords, VocabularyFile, VocabularyInput } from './vocabulary-types.js';

const FIELD_KEY = /^[A-Za-z_][A-Za-z0-9_]*\.[A-Za-z_][A-Za-z0-9_]*$/;
const words = z.array(z.string());
const wordMap = z.record(z.string(), words);
const languageSchema = z
  .object({
    tools: z.record(z.string(), z.object({ triggers: words.optional(), label: z.string().optional(), example: z.string().optional() }).strict()).optional(),
    parameters: z.record(z.string(), z.object({ cues: words.optional(), label: z.string().optional() }).strict()).optional(),
    values: z.record(z.string(), wordMap).optional(),
    destinations: z.object({ channels: words.optional() }).strict().optional(),
    verbs: z.object({ read: words.optional(), write: words.optional() }).strict().optional(),
    connectors: wordMap.optional(),
    compute: wordMap.optional(),
    dates: z
      .object({ weekdays: wordMap.optional(), days: wordMap.optional(), day_parts: wordMap.optional(), spans: wordMap.optional(), availability: words.optional() })
      .strict()
      .optional(),
    stopwords: words.optional(),
    foreign: words.optional(),
    messages: z.record(z.string(), z.string()).optional(),
    data: z
      .object({
        managers: wordMap.optional(),
        fields: z.record(z.string(), words).optional(),
        values: z.record(z.string(), wordMap).optional(),
      })
      .strict()
      .optional(),
  })
  .strict();
const fileSchema = z
  .object({
    settings: z.object({ language: z.string().optional() }).strict().optional(),
    languages: z.record(z.string(), languageSchema).optional(),
  })
  .strict();

/** A vocabulary ready to read turns with: both languages' words, the default language, its digest. */
export interface Vocabulary {
  readonly language: Language;
  readonly words: Readonly<Record<Language, LanguageWords>>;
  /** SHA-256 of the canonical JSON of the file as given (after parsing). */
  readonly digest: string;
}

/** Reads a vocabulary from YAML text or an already parsed object; the defaults fill what it leaves out. */
export function loadVocabulary(source: string | VocabularyFile | undefined): Vocabulary {
  let raw: unknown = source ?? {};
  if (typeof source === 'string') {
    try {
      raw = parseYaml(source) ?? {};
    } catch (error) {
      throw new PlumbError('router_invalid_vocabulary', `The vocabulary is not valid YAML: ${(error as Error).message}`, { cause: error });
    }
  }
  const parsed = fileSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new PlumbError(
      'router_invalid_vocabulary',
      `The vocabulary has a problem at '${issue?.path.join('.') ?? ''}': ${issue?.message ?? 'invalid'}. Sections: settings, languages.<en|pt-BR>.{tools, parameters, values, destinations, verbs, connectors, compute, dates, stopwords, foreign, messages, data.{managers, fields, values}}.`,
    );
  }
  const file = parsed.data as VocabularyFile;
  for (const [name, input] of Object.entries(file.languages ?? {})) {
    for (const section of ['fields', 'values'] as const) {
      for (const key of Object.keys(input.data?.[section] ?? {})) {
        if (!FIELD_KEY.test(key)) {
          throw new PlumbError('router_invalid_vocabulary', `The vocabulary's languages.${name}.data.${section} has the key '${key}'; write it Manager.field, such as Material.density.`);
        }
      }
    }
  }
  const language = file.settings?.language === undefined ? 'en' : asLanguage(file.settings.language);
  for (const key of Object.keys(file.languages ?? {})) asLanguage(key);
  const merged = {} as Record<Language, LanguageWords>;
  for (const lang of LANGUAGES) merged[lang] = buildWords(DEFAULT_WORDS[lang], file.languages?.[lang] ?? {});
  return Object.freeze({ language, words: merged, digest: canonicalHash(file as unknown as Record<string, unknown>) });
}

/** `en`, `pt-BR` (also `pt`, `pt-br`): the two languages the router reads. */
export function asLanguage(value: string): Language {
  const lower = value.toLowerCase();
  if (lower === 'en' || lower.startsWith('en-')) return 'en';
  if (lower === 'pt-br' || lower === 'pt') return 'pt-BR';
  throw new PlumbError('router_unsupported_language', `Language '${value}' is not one the router reads. Languages: en, pt-BR.`);
}

function buildWords(base: VocabularyInput, extra: VocabularyInput): LanguageWords {
  const list = (...lists: (readonly string[] | undefined)[]): string[] => {
    const seen = new Set<string>();
    for (const items of lists) for (const item of items ?? []) seen.add(foldPhrase(item));
    seen.delete('');
    // Longer phrases first so that "day after tomorrow" wins over "tomorrow".
    return [...seen].sort((a, b) => b.length - a.length || (a < b ? -1 : 1));
  };
  const mapOf = (a: Readonly<Record<string, readonly string[]>> | undefined, b: Readonly<Record<string, readonly string[]>> | undefined): Record<string, string[]> => {
    const out: Record<string, string[]> = {};
    for (const key of new Set([...Object.keys(a ?? {}), ...Object.keys(b ?? {})])) out[key] = list(a?.[key], b?.[key]);
    return out;
  };
  const tools: Record<string, { triggers: string[]; label: string | null; example: string | null }> = {};
  for (const [name, entry] of Object.entries(extra.tools ?? {})) tools[name] = { triggers: list(entry.triggers), label: entry.label ?? null, example: entry.example ?? null };
  const parameters: Record<string, { cues: string[]; label: string | null }> = {};
  for (const [name, entry] of Object.entries(extra.parameters ?? {})) parameters[name] = { cues: list(entry.cues), label: entry.label ?? null };
  const values: Record<string, Record<string, string[]>> = {};
  for (const [name, entry] of Object.entries(extra.values ?? {})) values[name] = mapOf(entry, undefined);
  return {
    tools,
    parameters,
    values,
    channels: list(extra.destinations?.channels),
    readVerbs: list(base.verbs?.read, extra.verbs?.read),
    writeVerbs: list(base.verbs?.write, extra.verbs?.write),
    connectors: mapOf(base.connectors, extra.connectors),
    compute: mapOf(base.compute, extra.compute),
    weekdays: mapOf(base.dates?.weekdays, extra.dates?.weekdays),
    days: mapOf(base.dates?.days, extra.dates?.days),
    dayParts: mapOf(base.dates?.day_parts, extra.dates?.day_parts),
    spans: mapOf(base.dates?.spans, extra.dates?.spans),
    availability: list(base.dates?.availability, extra.dates?.availability),
    stopwords: new Set(list(base.stopwords, extra.stopwords)),
    foreign: list(base.foreign, extra.foreign),
    messages: { ...(base.messages ?? {}), ...(extra.messages ?? {}) },
    data: {
      managers: mapOf(extra.data?.managers, undefined),
      fields: mapOf(extra.data?.fields, undefined),
      values: Object.fromEntries(Object.entries(extra.data?.values ?? {}).map(([key, entry]) => [key, mapOf(entry, undefined)])),
    },
  };
}
