import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDirEach } from '../../test/support/temp.js';
import { crossFolderCircles, kindOf, layerViolations, publishedFaces, roomOf } from './check.js';
import type { ImportEdge } from './imports.js';
import { fileImports, sourceFiles } from './imports.js';
import { parseLayerSpec, readLayerBlock } from './spec.js';

const spec = parseLayerSpec('# lowest first\ncore\ndata tools\nengine\ndemo\ncli\ndemo <- cli\n');
const edge = (from: string, to: string): ImportEdge => ({ from, to, dynamic: false });
const none = new Set<string>();

describe('the layer list', () => {
  it('ranks rooms lowest first, a line a layer, and reads who alone may import a room', () => {
    expect([...spec.rank]).toEqual([['core', 0], ['data', 1], ['tools', 1], ['engine', 2], ['demo', 3], ['cli', 4]]);
    expect([...(spec.onlyFrom.get('demo') ?? [])]).toEqual(['cli']);
  });

  it('refuses a room named twice, an arrow over an unknown room, and a document without the block', () => {
    expect(() => parseLayerSpec('core\ndata core')).toThrow("room 'core' is named twice");
    expect(() => parseLayerSpec('core\ndemo <- cli')).toThrow("'demo' in 'demo <- …' is not a room of any layer");
    expect(() => readLayerBlock('# Architecture\n```ts\ncore\n```\n')).toThrow('no ```layers block found');
    expect(readLayerBlock('text\n```layers\ncore\ndata\n```\nmore')).toBe('core\ndata\n');
  });
});

describe('the rooms and kinds of files', () => {
  it('names the room under src/, with the files directly under it as the package', () => {
    expect(roomOf('src/engine/turn/loop.ts')).toBe('engine');
    expect(roomOf('src/index.ts')).toBe('package');
    expect(roomOf('examples/a/server.ts')).toBeUndefined();
  });

  it('tells tests, test support and runtime apart; a published testing room is runtime', () => {
    expect(kindOf('src/store/memory-store.test.ts')).toBe('test');
    expect(kindOf('src/data/testing/postgres.ts')).toBe('support');
    expect(kindOf('src/engine/test-support/router.ts')).toBe('support');
    expect(kindOf('src/engine/test-support.ts')).toBe('support');
    expect(kindOf('src/store/open-child.fixture.ts')).toBe('support');
    expect(kindOf('src/testing/index.ts')).toBe('runtime');
  });
});

describe('imports against the layers', () => {
  it('lets an import go down or stay in its layer, and names one that goes up', () => {
    const found = layerViolations([edge('src/engine/a.ts', 'src/core/index.ts'), edge('src/data/a.ts', 'src/tools/index.ts'), edge('src/data/b.ts', 'src/engine/index.ts')], spec, none);
    expect(found).toEqual([{ ...edge('src/data/b.ts', 'src/engine/index.ts'), reason: 'data imports engine, a layer above it' }]);
  });

  it('keeps a room to its named importers, test support included; tests may import anything', () => {
    const found = layerViolations([
      edge('src/cli/a.ts', 'src/demo/index.ts'),
      edge('src/engine/a.ts', 'src/demo/index.ts'),
      edge('src/engine/test-support/r.ts', 'src/demo/index.ts'),
      edge('src/engine/test-support/s.ts', 'src/cli/index.ts'),
      edge('src/core/a.test.ts', 'src/demo/index.ts'),
    ], spec, none);
    expect(found.map((violation) => violation.from)).toEqual(['src/engine/a.ts', 'src/engine/test-support/r.ts']);
    expect(found[1]?.reason).toBe('only cli may import demo (and no test support under src/)');
  });

  it('names a room that is in no layer, so that a new room cannot go unchecked', () => {
    expect(layerViolations([edge('src/widgets/a.ts', 'src/core/index.ts')], spec, none)[0]?.reason).toBe("room 'widgets' is in no layer of the list");
  });

  it('lets code outside src/ import only the faces the package publishes', () => {
    const faces = publishedFaces({ exports: { '.': { types: './dist/index.d.ts', import: './dist/index.js' }, './server': { import: './dist/server/index.js' }, './package.json': './package.json' } });
    expect([...faces]).toEqual(['src/index.ts', 'src/server/index.ts']);
    const found = layerViolations([edge('examples/a/server.ts', 'src/server/index.ts'), edge('examples/a/server.ts', 'src/server/plugin.ts')], spec, faces);
    expect(found.map((violation) => violation.to)).toEqual(['src/server/plugin.ts']);
  });
});

describe('import circles', () => {
  it('names a circle of more than two files across folders, largest first, and no other', () => {
    const circles = crossFolderCircles([
      edge('src/a/one.ts', 'src/b/two.ts'), edge('src/b/two.ts', 'src/c/three.ts'), edge('src/c/three.ts', 'src/a/one.ts'),
      edge('src/d/x.ts', 'src/d/y.ts'), edge('src/d/y.ts', 'src/d/z.ts'), edge('src/d/z.ts', 'src/d/x.ts'),
      edge('src/e/p.ts', 'src/f/q.ts'), edge('src/f/q.ts', 'src/e/p.ts'),
      edge('src/g/a.ts', 'src/h/b.ts'), edge('src/h/b.ts', 'src/g/c.ts'),
    ]);
    expect(circles).toEqual([['src/a/one.ts', 'src/b/two.ts', 'src/c/three.ts']]);
  });
});

describe('reading imports with the TypeScript compiler', () => {
  const dir = tempDirEach('plumb-layers-');

  it('reads static, re-exported, type-only and dynamic imports, resolved to source files; packages are skipped', () => {
    const write = (file: string, text: string): void => {
      mkdirSync(dirname(join(dir.path, file)), { recursive: true });
      writeFileSync(join(dir.path, file), text);
    };
    write('src/core/index.ts', 'export const one = 1;\n');
    write('src/data/model.ts', 'export type Model = string;\n');
    write('src/data/index.ts', "export { one } from '../core/index.js';\nimport type { Model } from './model.js';\nimport { z } from 'zod';\nexport const load = () => import('../core/index.js');\n// import('./nothing.js') in a comment is no import\nexport type M = Model;\nvoid z;\n");
    expect(sourceFiles(dir.path, 'src')).toEqual(['src/core/index.ts', 'src/data/index.ts', 'src/data/model.ts']);
    expect(fileImports(dir.path, 'src/data/index.ts')).toEqual([
      { from: 'src/data/index.ts', to: 'src/core/index.ts', dynamic: false },
      { from: 'src/data/index.ts', to: 'src/data/model.ts', dynamic: false },
      { from: 'src/data/index.ts', to: 'src/core/index.ts', dynamic: true },
    ]);
  });
});

describe('the layer list in docs/architecture.md', () => {
  it('places every room under src/ in a layer', () => {
    const root = join(import.meta.dirname, '..', '..');
    const listed = parseLayerSpec(readLayerBlock(readFileSync(join(root, 'docs/architecture.md'), 'utf8')));
    const rooms = new Set(sourceFiles(root, 'src').map((file) => roomOf(file)));
    expect([...rooms].filter((room) => room !== undefined && !listed.rank.has(room))).toEqual([]);
  });
});
