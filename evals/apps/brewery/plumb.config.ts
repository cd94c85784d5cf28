// The brewery app for the held-out eval (issue 26): its tables attached as they are.
// Build the database first: node evals/apps/build-db.mjs brewery
import { defineConfig } from 'plumb-agent';

export default defineConfig({
  app: './app.ts',
  database: 'sqlite:.data/app.sqlite',
  actors: { brewer: { id: 'priya@brewery.example', displayName: 'Priya Nair' }, manager: { id: 'office', roles: ['manager'], displayName: 'Office' } },
});
