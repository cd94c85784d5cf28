import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

const src = join(import.meta.dirname, 'src');

export default defineConfig({
  resolve: {
    // The examples import the package by name, as an installed copy does; the tests run them from
    // source, as tsconfig.json's paths type-check them.
    alias: [
      { find: /^plumb-agent$/, replacement: join(src, 'index.ts') },
      { find: /^plumb-agent\/(.+)$/, replacement: join(src, '$1', 'index.ts') },
    ],
  },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'scripts/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
