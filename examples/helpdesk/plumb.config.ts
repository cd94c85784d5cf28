import { defineConfig } from 'plumb-agent';

export default defineConfig({
  app: './app/index.ts',
  // The helpdesk's PostgreSQL database (schema.sql made its tables).
  database: '${HELPDESK_DATABASE_URL:-postgres://postgres:postgres@127.0.0.1:5432/helpdesk}',
  // The journal of conversations, apart from the helpdesk's own database.
  store: '${HELPDESK_STORE:-.plumb/chat.sqlite}',
  vocabulary: './app/vocabulary.yaml',
  authenticate: './app/authenticate.ts',
  actors: {
    maya: { id: 'maya', roles: ['agent'], displayName: 'Maya (agent, Billing)' },
    omar: { id: 'omar', roles: ['agent'], displayName: 'Omar (agent, Hardware)' },
    lena: { id: 'lena', roles: ['customer'], displayName: 'Lena (customer)' },
  },
  // Development only: the console may sign in as the actors above.
  consoleSignIn: true,
});
