import { maxLookupDepth } from '../data/index.js';
import { pathTokensOf } from './relation-paths.js';
import type { SchemaIndex, SchemaIndexEntry } from './schema-index.js';
import { singular, tokenize } from './tokens.js';

export const searchResultLimit = 10;

const nameScore = 8;
const strongScore = 4;
const weakScore = 2;
const substringScore = 1;

/**
 * Ranks exposed managers for a query. Each query term (and its singular form) scores against a
 * manager's tokens: equal to a name or catalogue alias token 8, to a field or relation token 4, to a relation or
 * manager reached through a chain of 2 relations 3 (of 3: 2; up to `maxDepth`, the
 * `maxRelationDepth` setting), to a description or filter token 2, a substring of the joined tokens
 * 1. When some managers match every term only those stay, then those a term names (after them), so
 * a manager that reaches the asked-for one through another (Project → parts → material) stays
 * beside it and a manager the query names is never dropped for another's paths. Order: score, then fewer name
 * tokens, then name (within each of the two groups). Up to 10; blank or no match → [].
 */
export function searchManagers(index: SchemaIndex, query: string, maxDepth: number = maxLookupDepth): SchemaIndexEntry[] {
  const terms = [...new Set(tokenize(query))];
  if (terms.length === 0) return [];
  const forms = terms.map((term) => {
    const one = singular(term);
    return one === term ? [term] : [term, one];
  });
  type Hit = { readonly score: number; readonly all: boolean; readonly named: boolean; readonly nameLength: number; readonly name: string; readonly entry: SchemaIndexEntry };
  const hits: Hit[] = [];
  let anyAll = false;
  const pathTokens = pathTokensOf(index, maxDepth);
  for (const item of index.all) {
    const reached = pathTokens(item);
    let score = 0;
    let matched = 0;
    let named = false;
    for (const variants of forms) {
      let best = 0;
      for (const form of variants) {
        let value = 0;
        if (item.nameTokens.includes(form) || item.aliasTokens.has(form)) value = nameScore;
        else if (item.strongTokens.has(form)) value = strongScore;
        else if (reached.has(form)) value = strongScore + 1 - reached.get(form)!;
        else if (item.weakTokens.has(form)) value = weakScore;
        else if (item.haystack.includes(form)) value = substringScore;
        if (value > best) best = value;
      }
      if (best > 0) matched++;
      if (best === nameScore) named = true;
      score += best;
    }
    if (score === 0) continue;
    const all = matched === forms.length;
    if (all) anyAll = true;
    hits.push({ score, all, named, nameLength: item.nameTokens.length, name: item.entry.manager, entry: item.entry });
  }
  const kept = anyAll ? hits.filter((hit) => hit.all || hit.named) : hits;
  kept.sort((a, b) => Number(b.all) - Number(a.all) || b.score - a.score || a.nameLength - b.nameLength || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return kept.slice(0, searchResultLimit).map((hit) => hit.entry);
}
