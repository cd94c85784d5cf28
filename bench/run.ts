/**
 * `npm run bench -- <name> [args]`: runs `bench/<name>.bench.ts`, whose default export is a
 * `Benchmark`. Benchmarks live outside `npm test`; they print tables of medians and ratios.
 */
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Benchmark } from './harness.js';

const here = dirname(fileURLToPath(import.meta.url));
const available = readdirSync(here)
  .filter((file) => file.endsWith('.bench.ts'))
  .map((file) => file.slice(0, -'.bench.ts'.length))
  .sort();

const [name, ...args] = process.argv.slice(2);
if (name === undefined || name === '--help' || name === '-h') {
  console.log(`usage: npm run bench -- <name> [args]\navailable: ${available.join(', ') || '(none yet)'}`);
  process.exit(name === undefined ? 2 : 0);
}
if (!available.includes(name)) {
  console.error(`bench: unknown benchmark '${name}'. Available: ${available.join(', ') || '(none yet)'}`);
  process.exit(2);
}
const module = (await import(join(here, `${name}.bench.ts`))) as { default: Benchmark };
await module.default.run(args);
