/** The row type of a tool's results: the host's label when it has one, else words derived from the tool's name. */
import type { Language } from '../router/index.js';
import type { RowLabel } from './types.js';

export function singular(word: string): string {
  if (/[^aeiou]ies$/.test(word)) return `${word.slice(0, -3)}y`;
  if (/(ss|x|ch|sh|zz)es$/.test(word)) return word.slice(0, -2);
  if (/[^su]s$/.test(word)) return word.slice(0, -1);
  return word;
}

export function plural(word: string): string {
  if (/[^aeiou]y$/.test(word)) return `${word.slice(0, -1)}ies`;
  if (/(s|x|ch|sh|z)$/.test(word)) return `${word}es`;
  return `${word}s`;
}

/** The thing a tool's name names, in the singular: 'query_part' → 'part', 'list_events' → 'event', 'create_project' → 'project'. */
export function thingOf(tool: string): string {
  const words = tool.split(/[_\-.]|(?=[A-Z])/).map((w) => w.toLowerCase()).filter((w) => w.length > 0);
  const rest = words.slice(words.length > 1 ? 1 : 0);
  const last = rest.length - 1;
  rest[last] = singular(rest[last] as string);
  return rest.join(' ');
}

/** The leading verb of a tool's name, lowercased ('create_project' → 'create'). */
export function verbOf(tool: string): string {
  return (tool.split(/[_\-.]|(?=[A-Z])/)[0] ?? '').toLowerCase();
}

/** Words for `count` rows of a tool in a language: the label's, else the English derived from the name. */
export function rowNoun(tool: string, language: Language, count: number, label: RowLabel | undefined): string {
  const thing = thingOf(tool);
  const labelled = label?.(tool, language, count) ?? label?.(`query_${thing.replace(/ /g, '_')}`, language, count) ?? null;
  if (labelled !== null && labelled.length > 0) return labelled;
  if (count === 1) return thing;
  const words = thing.split(' ');
  words[words.length - 1] = plural(words[words.length - 1] as string);
  return words.join(' ');
}

/** The noun of a thing a parameter names ('order_id' → 'order'): the label of its read tool (`query_order`) when there is one. */
export function thingNoun(parameter: string, language: Language, label: RowLabel | undefined): string | null {
  const match = /^(.+?)(?:_(?:id|number|no)|Id|Number)$/.exec(parameter);
  if (match === null) return null;
  const thing = (match[1] as string).replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
  return label?.(`query_${thing}`, language, 1) ?? label?.(`get_${thing}`, language, 1) ?? thing.replace(/_/g, ' ');
}

export function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
