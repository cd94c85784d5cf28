import { describeWithPostgres } from '../../data/testing/postgres.js';
import { openPostgresStore } from '../../postgres/index.js';
import { runStoreConformance } from '../conformance.js';

describeWithPostgres('the PostgreSQL journal', (server) => {
  runStoreConformance({
    name: 'postgres',
    durable: true,
    open: async (clock) => {
      const schema = await server.freshSchema();
      const store = await openPostgresStore({ url: server.url, schema, clock, max: 4 });
      return { store, reopen: () => openPostgresStore({ url: server.url, schema, clock, max: 4 }) };
    },
  });
});
