/** What a read was filtered by, in words: `{ material__name: 'Steel', density__gt: 5 }` → "material name = Steel and density > 5". */
import type { JsonObject, JsonValue } from '../../core/index.js';
import { compact, fieldWords, isList, isRecord } from './values.js';
import type { AnswerWords } from './words.js';

function describeFilters(filters: JsonValue | undefined, words: AnswerWords): string[] {
  if (!isRecord(filters)) return [];
  return Object.keys(filters).map((key) => {
    const parts = key.split('__');
    const last = parts[parts.length - 1] as string;
    const operator = parts.length > 1 && Object.hasOwn(words.operators, last) ? (words.operators[last] as string) : null;
    const field = fieldWords((operator === null ? parts : parts.slice(0, -1)).join('__'));
    const value = filters[key];
    const written = isList(value) ? value.map((v) => compact(v)).join(', ') : compact(value);
    return `${field} ${operator ?? '='} ${written}`;
  });
}

/** The conditions of a query call's arguments (filters, then exclusions), or '' when it has none. */
export function conditions(args: JsonObject, words: AnswerWords): string {
  const kept = describeFilters(args['filters'], words);
  const dropped = describeFilters(args['exclude'], words).map((text) => `${words.excluding} ${text}`);
  return [...kept, ...dropped].join(', ');
}
