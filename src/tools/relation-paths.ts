import type { IndexedManager, SchemaIndex } from './schema-index.js';
import { tokenize } from './tokens.js';

type PathTokens = (item: IndexedManager) => ReadonlyMap<string, number>;

const cache = new WeakMap<SchemaIndex, Map<number, PathTokens>>();

/** `relationPathTokens` for every manager of an index at one depth, each computed once, when first asked. */
export function pathTokensOf(index: SchemaIndex, maxDepth: number): PathTokens {
  let byDepth = cache.get(index);
  if (byDepth === undefined) cache.set(index, (byDepth = new Map<number, PathTokens>()));
  let tokens = byDepth.get(maxDepth);
  if (tokens === undefined) {
    const memo = new Map<string, ReadonlyMap<string, number>>();
    const words = new Map<string, readonly string[]>();
    const tokensOf = (text: string): readonly string[] => {
      let found = words.get(text);
      if (found === undefined) words.set(text, (found = tokenize(text)));
      return found;
    };
    tokens = (item) => {
      let reached = memo.get(item.entry.manager);
      if (reached === undefined) memo.set(item.entry.manager, (reached = relationPathTokens(index, item, maxDepth, tokensOf)));
      return reached;
    };
    byDepth.set(maxDepth, tokens);
  }
  return tokens;
}

/**
 * The words a manager reaches through chained relations, as its filter keys chain them
 * (`parts__material__name`): for each path of 2 to `maxDepth` relations, the names of the
 * relations past the first and of the managers they reach, each at the fewest relations it takes.
 * A path never walks a relation straight back, nor returns to a manager it passed.
 */
export function relationPathTokens(index: SchemaIndex, item: IndexedManager, maxDepth: number, tokensOf: (text: string) => readonly string[]): ReadonlyMap<string, number> {
  const reached = new Map<string, number>();
  const note = (token: string, depth: number): void => {
    const known = reached.get(token);
    if (known === undefined || depth < known) reached.set(token, depth);
  };
  const walk = (from: IndexedManager, depth: number, cameBy: string | undefined, passed: ReadonlySet<string>): void => {
    for (const [relation, target] of from.relationTargets) {
      if (passed.has(target) || (cameBy !== undefined && relation === cameBy)) continue;
      const next = index.indexed(target);
      if (next === undefined) continue;
      if (depth >= 2) {
        for (const token of tokensOf(relation)) note(token, depth);
        for (const token of next.nameTokens) note(token, depth);
      }
      if (depth < maxDepth) walk(next, depth + 1, from.reverseNames.get(relation), new Set([...passed, target]));
    }
  };
  walk(item, 1, undefined, new Set([item.entry.manager]));
  // A word the manager holds itself already ranks as its own.
  for (const token of [...item.nameTokens, ...item.strongTokens]) reached.delete(token);
  return reached;
}
