// The hospital rota app for the held-out eval (issue 26): its tables attached as they are.
// Build the database first: node evals/apps/build-db.mjs hospital
import { defineConfig } from 'plumb-agent';

export default defineConfig({
  app: './app.ts',
  database: 'sqlite:.data/app.sqlite',
  actors: {
    nurse: { id: 'grace.okafor@hospital.example', displayName: 'Grace Okafor' },
    agency: { id: 'agency.cover@hospital.example', displayName: 'An agency nurse' },
    visitor: { id: 'visitor-1', displayName: 'A visitor' },
  },
});
