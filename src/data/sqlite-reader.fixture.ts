import { sql } from 'kysely';
import { sqlite } from './sqlite-database.js';

/**
 * A host that reads with a statement timeout and never closes its database: it prints the rows,
 * then must exit on its own (the idle reader process holds nothing open). Argument: the file.
 */
const database = sqlite({ path: process.argv[2] ?? '' });
const result = await database.execute(sql`select 1 as one`.compile(database.kysely), { timeoutMs: 5000 });
process.stdout.write(`${JSON.stringify(result.rows)}\n`);
