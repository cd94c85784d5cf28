import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { userActor } from '../core/index.js';
import { defineApp, sqlite } from '../data/index.js';
import type { App, DataSettings } from '../data/index.js';
import { demoManagers } from './managers.js';
import { demoSeed, scaledSeed } from './seed-data.js';
import type { SeedBatch } from './seed-data.js';

export interface DemoAppOptions {
  /** SQLite file, or `:memory:`. Default `:memory:`. A new or empty file is seeded. */
  readonly path?: string;
  /** The moment the calendar is placed around. Default: now. */
  readonly now?: Date;
  /** Seed the large synthetic shop instead (scale 100 → 100,000 parts, 1,000,000 order lines). */
  readonly scale?: number;
  readonly settings?: Partial<DataSettings>;
  /** Called with each SQL statement (for benchmarks and tests that count statements). */
  readonly onQuery?: (sql: string) => void;
}

/** The default file `plumb serve --demo` and the CLI use, relative to the working directory. */
export const defaultDemoDatabasePath = '.plumb/demo.sqlite';

/** Opens the demo shop, creating its tables and seeding it when it is empty. */
export async function createDemoApp(options: DemoAppOptions = {}): Promise<App> {
  const path = options.path ?? ':memory:';
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const app = defineApp({
    managers: [...demoManagers],
    database: sqlite({ path }),
    ...(options.settings === undefined ? {} : { settings: options.settings }),
    ...(options.onQuery === undefined ? {} : { onQuery: options.onQuery }),
  });
  try {
    await app.ready();
    if (await isEmpty(app)) {
      const batches: Iterable<SeedBatch> =
        options.scale === undefined ? demoSeed(options.now ?? new Date()) : scaledSeed(options.scale);
      for (const batch of batches) await app.load(batch.manager, batch.rows);
    }
    return app;
  } catch (error) {
    await app.close();
    throw error;
  }
}

/** The seed runs as an admin because read permissions apply to every count, the seed's too. */
const seeder = userActor('plumb-seed', ['admin']);

async function isEmpty(app: App): Promise<boolean> {
  return (await app.count(seeder, 'Material')) === 0;
}
