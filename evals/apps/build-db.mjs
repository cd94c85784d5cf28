// Builds evals/apps/<name>/.data/app.sqlite afresh from the app's schema.sql and seed.sql.
// Usage: node evals/apps/build-db.mjs league|brewery|observatory|hospital|theatre
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';

const name = process.argv[2];
const folder = join(dirname(fileURLToPath(import.meta.url)), name ?? '');
if (name === undefined || !/^[a-z]+$/.test(name)) throw new Error('name the app: league, brewery, observatory, hospital or theatre');
const path = join(folder, '.data', 'app.sqlite');
mkdirSync(dirname(path), { recursive: true });
for (const file of [path, `${path}-wal`, `${path}-shm`]) rmSync(file, { force: true });
const database = new Database(path);
database.exec(readFileSync(join(folder, 'schema.sql'), 'utf8'));
database.exec(readFileSync(join(folder, 'seed.sql'), 'utf8'));
database.close();
console.log(path);
