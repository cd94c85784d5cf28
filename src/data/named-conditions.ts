/**
 * Host-named conditions: a manager's named filters ("overdue", "active"), checked against its lookup
 * keys when the app is defined, and resolved at read time (`$now`, `$today` from the asking clock).
 * Each is only a filter: it picks rows within what the actor's read permission already lets them see.
 */
import { PlumbError } from '../core/index.js';
import type { ConditionSpec } from './definition-types.js';
import { didYouMeanKey, filterKeys, resolveLookup } from './lookups.js';
import type { Manager } from './model.js';
import { memberNamePattern } from './naming.js';

export interface NamedCondition {
  readonly name: string;
  readonly filter: Readonly<Record<string, unknown>>;
  readonly description: string | undefined;
  readonly words: { readonly en: readonly string[]; readonly 'pt-BR': readonly string[] };
}

/** A problem with one condition: the manager, the condition and the key it is about. */
export interface ConditionProblem {
  readonly manager: string;
  readonly condition: string;
  readonly key: string | null;
  readonly message: string;
}

/** The time words a condition's values may hold. */
export const conditionTimeWords = ['$now', '$today'] as const;

const WORD_KEYS = new Set(['en', 'pt-BR']);
const FULL_KEYS = new Set(['filter', 'description', 'words']);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Whether a condition is given in the full form (`{ filter, description?, words? }`). */
function isFull(spec: ConditionSpec): spec is Extract<ConditionSpec, { filter: unknown }> {
  return isObject(spec) && isObject(spec['filter']) && Object.keys(spec).every((key) => FULL_KEYS.has(key));
}

/** A manager's conditions in one shape, in declaration order. */
export function namedConditions(manager: Pick<Manager, 'spec'>): NamedCondition[] {
  return Object.entries(manager.spec.conditions ?? {}).map(([name, spec]) => {
    const full = isFull(spec) ? spec : null;
    return {
      name,
      filter: full?.filter ?? (spec as Readonly<Record<string, unknown>>),
      description: full?.description,
      words: { en: [...(full?.words?.en ?? [])], 'pt-BR': [...(full?.words?.['pt-BR'] ?? [])] },
    };
  });
}

/** What is wrong with a manager's conditions: names, shapes, and every key checked against its lookups. */
export function conditionProblems(manager: Manager): ConditionProblem[] {
  const given = manager.spec.conditions;
  if (given === undefined) return [];
  const problem = (condition: string, key: string | null, message: string): ConditionProblem => ({ manager: manager.name, condition, key, message: `${manager.name}.conditions.${condition}: ${message}` });
  if (!isObject(given)) return [problem('*', null, 'conditions is an object of named filters.')];
  const out: ConditionProblem[] = [];
  let keys: string[] | undefined;
  for (const [name, spec] of Object.entries(given)) {
    if (!memberNamePattern.test(name)) out.push(problem(name, null, `a condition name is camelCase letters and digits, got '${name}'.`));
    if (manager.field(name) !== undefined || manager.relation(name) !== undefined) out.push(problem(name, null, `'${name}' is also a field or relation of ${manager.name}; name the condition otherwise.`));
    if (!isObject(spec)) {
      out.push(problem(name, null, 'a condition is a filter object ({ dueOn__lt: "$today" }) or { filter, description?, words? }.'));
      continue;
    }
    const full = isObject(spec['filter']) ? spec : null;
    if (full !== null) {
      for (const key of Object.keys(full)) if (!FULL_KEYS.has(key)) out.push(problem(name, key, `unknown key '${key}'; a condition in full is { filter, description?, words? }.`));
      if (full['description'] !== undefined && typeof full['description'] !== 'string') out.push(problem(name, 'description', 'description is a string.'));
      const words = full['words'];
      if (words !== undefined) {
        if (!isObject(words)) out.push(problem(name, 'words', "words is { en?: [...], 'pt-BR'?: [...] }."));
        else {
          for (const [language, list] of Object.entries(words)) {
            if (!WORD_KEYS.has(language)) out.push(problem(name, `words.${language}`, `unknown language '${language}'; languages: en, pt-BR.`));
            else if (!Array.isArray(list) || list.some((word) => typeof word !== 'string' || word.trim() === '')) out.push(problem(name, `words.${language}`, 'a list of non-empty strings.'));
          }
        }
      }
    }
    const filter = (full?.['filter'] ?? spec) as Record<string, unknown>;
    if (Object.keys(filter).length === 0) out.push(problem(name, null, 'the filter is empty: a condition picks rows by at least one key.'));
    for (const [key, value] of Object.entries(filter)) {
      try {
        const lookup = resolveLookup(manager, key);
        const time = typeof value === 'string' && (conditionTimeWords as readonly string[]).includes(value);
        const type = lookup.shape.type;
        if (time && type !== 'date' && type !== 'datetime') out.push(problem(name, key, `${value} compares with a date or date-time key; '${key}' is ${type}.`));
      } catch (error) {
        if (!(error instanceof PlumbError)) throw error;
        keys ??= filterKeys(manager);
        out.push(problem(name, key, `unknown filter key '${key}'.${didYouMeanKey(manager, key, keys)}`));
      }
    }
  }
  return out;
}

/** Throws `invalid_condition` listing every problem of these managers' conditions. */
export function checkConditions(managers: readonly Manager[]): void {
  const problems = managers.flatMap(conditionProblems);
  if (problems.length === 0) return;
  throw new PlumbError('invalid_condition', `Invalid conditions:\n- ${problems.map((p) => p.message).join('\n- ')}`, { details: { problems: problems.map((p) => ({ ...p })) } });
}

/** A condition's filter at a moment (RFC 3339 with its offset): each time word as `timeValue` makes it for its key. */
export function conditionFilterAt(manager: Manager, condition: NamedCondition, now: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(condition.filter)) {
    const type = resolveLookup(manager, key).shape.type;
    out[key] = isTimeWord(value) ? timeValue(value, type === 'date' ? 'date' : 'datetime', now) : value;
  }
  return out;
}

/** One named condition's filter at a moment; a name the manager does not have is `invalid_filter_value`, naming those it has. */
export function namedFilter(manager: Manager, name: string, now: string): Record<string, unknown> {
  const all = manager.conditions;
  const condition = all.find((c) => c.name === name);
  if (condition === undefined) {
    throw new PlumbError('invalid_filter_value', `${manager.name} has no condition '${name}'. Conditions: ${all.map((c) => c.name).join(', ') || 'none'}.`, { details: { manager: manager.name, condition: name } });
  }
  return conditionFilterAt(manager, condition, now);
}

export function isTimeWord(value: unknown): value is (typeof conditionTimeWords)[number] {
  return value === '$now' || value === '$today';
}

/**
 * A time word at a moment: on a date key both are the day (`2026-12-01`); on a date-time key `$now`
 * is the instant and `$today` the start of the day, in the moment's own offset.
 */
export function timeValue(word: (typeof conditionTimeWords)[number], type: 'date' | 'datetime', now: string): string {
  const day = now.slice(0, 10);
  if (type === 'date') return day;
  if (word === '$now') return now;
  const offset = /(?:Z|[+-]\d{2}:\d{2})$/.exec(now)?.[0] ?? 'Z';
  return `${day}T00:00:00${offset}`;
}
