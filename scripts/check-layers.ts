/**
 * The layer check (`npm run lint` runs it): every import under src/ goes down the layer list in
 * docs/architecture.md or stays in its layer, nothing but its named importers reaches the demo,
 * examples use only the public API, and no import circle of more than two files spans folders.
 * Exits 1 and names each break.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { crossFolderCircles, layerViolations, publishedFaces } from './layers/check.js';
import type { PackageJson } from './layers/check.js';
import { fileImports, sourceFiles } from './layers/imports.js';
import { parseLayerSpec, readLayerBlock } from './layers/spec.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const spec = parseLayerSpec(readLayerBlock(readFileSync(join(root, 'docs/architecture.md'), 'utf8')));
const files = [...sourceFiles(root, 'src'), ...sourceFiles(root, 'examples')];
const edges = files.flatMap((file) => fileImports(root, file));
const violations = layerViolations(edges, spec, publishedFaces(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as PackageJson));
const circles = crossFolderCircles(edges.filter((edge) => edge.from.startsWith('src/') && edge.to.startsWith('src/')));

for (const { from, to, reason } of violations) process.stderr.write(`layers: ${from} → ${to}: ${reason}\n`);
for (const circle of circles) process.stderr.write(`layers: an import circle of ${circle.length} files across folders: ${circle.join(', ')}\n`);
if (violations.length + circles.length > 0) {
  process.stderr.write(`layers: ${violations.length} import${violations.length === 1 ? '' : 's'} against docs/architecture.md, ${circles.length} circle${circles.length === 1 ? '' : 's'}\n`);
  process.exitCode = 1;
} else {
  process.stdout.write(`layers: ${files.length} files, ${edges.length} imports, all down the layers; no circle across folders\n`);
}
