// The theatre company app for the held-out eval (issue 26): its tables attached as they are.
// Build the database first: node evals/apps/build-db.mjs theatre
import { defineConfig } from 'plumb-agent';

export default defineConfig({
  app: './app.ts',
  database: 'sqlite:.data/app.sqlite',
  actors: {
    amara: { id: 'amara.osei@theatre.example', displayName: 'Amara Osei' },
    guest: { id: 'guest-1', displayName: 'A guest' },
    dresser: { id: 'dresser@theatre.example', displayName: 'A dresser' },
  },
});
