/**
 * The child process of the concurrent-open test (sqlite-store.test.ts): opens the SQLite journal
 * at the given path, writes one thread, and exits. Not part of the library.
 */
import { openSqliteStore } from '../index.js';

const [path, owner] = process.argv.slice(2);
if (path === undefined || owner === undefined) throw new Error('usage: open-child DB OWNER');
const store = await openSqliteStore({ path });
await store.createThread({ owner });
await store.close();
