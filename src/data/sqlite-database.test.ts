import { join } from 'node:path';
import { describeDatabaseConformance } from './database-conformance.js';
import { sqlite } from './index.js';

describeDatabaseConformance('SQLite file', (dir) => sqlite({ path: join(dir, 'conformance.db') }));
describeDatabaseConformance('SQLite in memory', () => sqlite({ path: ':memory:' }));
