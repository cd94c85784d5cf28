import { dirname } from 'node:path';
import type { ImportEdge } from './imports.js';
import type { LayerSpec } from './spec.js';

/** What a file is to the check: code that runs, test support, or a test. */
export type FileKind = 'runtime' | 'support' | 'test';

/** `src/<room>/…`: the room; a file directly under `src/` is in the room `package` (the package's face). */
export function roomOf(file: string): string | undefined {
  const parts = file.split('/');
  if (parts[0] !== 'src') return undefined;
  return parts.length === 2 ? 'package' : parts[1];
}

export function kindOf(file: string): FileKind {
  if (/\.test\.ts$/.test(file)) return 'test';
  const inRoom = file.split('/').slice(2).join('/');
  if (/(^|\/)(test-support|testing)\//.test(inRoom) || /\.fixture\.ts$/.test(file) || /(^|\/)test-support\.ts$/.test(file)) return 'support';
  return 'runtime';
}

export interface Violation {
  readonly from: string;
  readonly to: string;
  readonly reason: string;
}

/**
 * Imports that break the spec. Runtime files import only their own layer and the layers below it;
 * test support may reach any layer, for the tests it serves; neither may import a room that names
 * its only importers elsewhere. Tests may import anything. Files outside `src/` (examples, bench,
 * tests) import under `src/` only the `published` faces (the package's public API).
 */
export function layerViolations(edges: readonly ImportEdge[], spec: LayerSpec, published: ReadonlySet<string>): Violation[] {
  const found: Violation[] = [];
  for (const edge of edges) {
    const fromRoom = roomOf(edge.from);
    const toRoom = roomOf(edge.to);
    if (toRoom === undefined) continue;
    if (fromRoom === undefined) {
      if (!published.has(edge.to)) found.push({ ...edge, reason: 'outside src/, only the public API: a face the package exports (package.json exports)' });
      continue;
    }
    if (fromRoom === toRoom) continue;
    const kind = kindOf(edge.from);
    if (kind === 'test') continue;
    const only = spec.onlyFrom.get(toRoom);
    if (only !== undefined && !(only.has(fromRoom) && kind === 'runtime')) {
      found.push({ ...edge, reason: `only ${[...only].join(', ')} may import ${toRoom}${kind === 'support' ? ' (and no test support under src/)' : ''}` });
      continue;
    }
    if (kind === 'support') continue;
    const from = spec.rank.get(fromRoom);
    const to = spec.rank.get(toRoom);
    if (from === undefined || to === undefined) {
      found.push({ ...edge, reason: `room '${from === undefined ? fromRoom : toRoom}' is in no layer of the list` });
    } else if (to > from) {
      found.push({ ...edge, reason: `${fromRoom} imports ${toRoom}, a layer above it` });
    }
  }
  return found;
}

/**
 * Import circles of more than two files that span more than one folder (Tarjan's strongly
 * connected components; a circle inside one folder is that folder's own business).
 */
export function crossFolderCircles(edges: readonly ImportEdge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) {
    next.set(from, [...(next.get(from) ?? []), to]);
    if (!next.has(to)) next.set(to, []);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  let counter = 0;
  // Iterative, so that a long chain of imports cannot overflow the call stack.
  for (const start of next.keys()) {
    if (index.has(start)) continue;
    const work: { node: string; child: number }[] = [{ node: start, child: 0 }];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const targets = next.get(frame.node)!;
      if (frame.child < targets.length) {
        const target = targets[frame.child++]!;
        if (!index.has(target)) {
          index.set(target, counter);
          low.set(target, counter++);
          stack.push(target);
          onStack.add(target);
          work.push({ node: target, child: 0 });
        } else if (onStack.has(target)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(target)!));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent !== undefined) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let member: string | undefined;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        components.push(component.sort());
      }
    }
  }
  return components.filter((files) => files.length > 2 && new Set(files.map((file) => dirname(file))).size > 1).sort((a, b) => b.length - a.length);
}

export interface PackageJson {
  readonly exports?: Readonly<Record<string, unknown>>;
}

/** The source of each face package.json publishes: `.` → src/index.ts, `./server` → src/server/index.ts. */
export function publishedFaces(manifest: PackageJson): Set<string> {
  const faces = new Set<string>();
  for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
    const built = typeof target === 'string' ? target : (target as { import?: unknown }).import;
    if (typeof built !== 'string' || subpath === './package.json') continue;
    const match = /^\.\/dist\/(.+)\.js$/.exec(built);
    if (match !== null) faces.add(`src/${match[1]}.ts`);
  }
  return faces;
}
