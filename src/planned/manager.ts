import type { ManagerCatalog } from '../data/index.js';

/** A manager a plan may name, as the planner reads it. */
export interface PlannedManager {
  readonly name: string;
  readonly description: string | undefined;
  readonly catalog?: ManagerCatalog | undefined;
}

/** A manager's line in the planner's prompt: its description, then its catalogue metadata. */
export function describeManager(manager: PlannedManager): string | undefined {
  const { aliases, domain, useWhen, distinguishFrom } = manager.catalog ?? {};
  const notes = [(aliases ?? []).length === 0 ? '' : `also called ${aliases!.join(', ')}`, domain === undefined ? '' : `domain: ${domain}`, useWhen === undefined ? '' : `use when ${useWhen}`, (distinguishFrom ?? []).length === 0 ? '' : `not to be confused with ${distinguishFrom!.join(', ')}`].filter((note) => note !== '');
  const parts = [manager.description, notes.length === 0 ? undefined : `(${notes.join('; ')})`].filter((part) => part !== undefined && part !== '');
  return parts.length === 0 ? undefined : parts.join(' ');
}

/**
 * Where the question meets a manager a task names, for the audit: its name (`exact_name`, a
 * plural too), a catalogue alias (`exact_alias`: the alias's words in a row, its last one in the
 * plural too), its catalogue domain or use-when words, its description's words; `planner_only`
 * when the question holds none of them and only the planner chose it.
 */
export type MatchSource = 'exact_name' | 'exact_alias' | 'catalog_domain' | 'catalog_use_when' | 'schema_description' | 'planner_only';

/** Lower-case words of at least `least` letters. */
function words(text: string | undefined, least = 4): Set<string> {
  return new Set((text ?? '').toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((word) => word.length >= least));
}

export function matchSources(manager: PlannedManager, question: string): MatchSource[] {
  const asked = words(question, 1);
  const name = manager.name.toLowerCase();
  const meets = (text: string | undefined): boolean => [...words(text)].some((word) => asked.has(word));
  const found: MatchSource[] = [];
  if (asked.has(name) || asked.has(`${name}s`)) found.push('exact_name');
  if ((manager.catalog?.aliases ?? []).some((alias) => saysAlias(question, alias))) found.push('exact_alias');
  if (meets(manager.catalog?.domain)) found.push('catalog_domain');
  if (meets(manager.catalog?.useWhen)) found.push('catalog_use_when');
  if (meets(manager.description)) found.push('schema_description');
  return found.length === 0 ? ['planner_only'] : found;
}

/** Whether the question says an alias: its words in a row, the last one also with an `s`. */
function saysAlias(question: string, alias: string): boolean {
  const said = ` ${question.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((word) => word !== '').join(' ')} `;
  const phrase = alias.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((word) => word !== '').join(' ');
  return phrase !== '' && (said.includes(` ${phrase} `) || said.includes(` ${phrase}s `));
}
