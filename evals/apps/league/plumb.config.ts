// The league app for the held-out eval (issue 26): its tables attached as they are.
// Build the database first: node evals/apps/build-db.mjs league
import { defineConfig } from 'plumb-agent';

export default defineConfig({
  app: './app.ts',
  database: 'sqlite:.data/app.sqlite',
  actors: { player: { id: 'rafael.souza@mail.example', displayName: 'Rafael Souza' }, fan: { id: 'fan-1', displayName: 'A fan' } },
});
