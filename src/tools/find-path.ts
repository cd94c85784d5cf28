import type { SchemaIndex } from './schema-index.js';

/**
 * Relation names along a shortest path between two exposed managers, over exposed relations in
 * both directions (a relation declared on one side only is walked back under its reverse name, or
 * its own name when none is known). `[]` from a manager to itself; null when either end is
 * unknown or hidden, or no path exists. Ties go to the alphabetically first relation at each hop.
 */
export function findPath(index: SchemaIndex, from: string, to: string): string[] | null {
  const start = index.indexed(from);
  const goal = index.indexed(to);
  if (start === undefined || goal === undefined) return null;
  if (from === to) return [];
  const previous = new Map<string, { readonly from: string; readonly relation: string }>();
  previous.set(from, { from: '', relation: '' });
  let frontier = [from];
  while (frontier.length > 0) {
    const next: string[] = [];
    for (const node of frontier) {
      for (const edge of index.edges(node)) {
        if (previous.has(edge.to)) continue;
        previous.set(edge.to, { from: node, relation: edge.relation });
        if (edge.to === to) return unwind(previous, from, to);
        next.push(edge.to);
      }
    }
    frontier = next;
  }
  return null;
}

function unwind(previous: ReadonlyMap<string, { readonly from: string; readonly relation: string }>, from: string, to: string): string[] {
  const path: string[] = [];
  let node = to;
  while (node !== from) {
    const step = previous.get(node);
    if (step === undefined) break;
    path.push(step.relation);
    node = step.from;
  }
  return path.reverse();
}
