// The observatory app for the held-out eval (issue 26): its tables attached as they are.
// Build the database first: node evals/apps/build-db.mjs observatory
import { defineConfig } from 'plumb-agent';

export default defineConfig({
  app: './app.ts',
  database: 'sqlite:.data/app.sqlite',
  actors: { observer: { id: 'aiko@astro.example', displayName: 'Aiko Tanaka' }, guest: { id: 'guest-1', displayName: 'A guest' } },
});
