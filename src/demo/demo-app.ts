import { openHostApp } from '../config/index.js';
import type { App, DataSettings } from '../data/index.js';
import { demoHost } from './host.js';
import { demoSeed, scaledSeed } from './seed-data.js';

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

/** Opens the demo shop, creating its tables and seeding it when it is empty. */
export async function createDemoApp(options: DemoAppOptions = {}): Promise<App> {
  const host = options.settings === undefined ? demoHost : { ...demoHost, data: options.settings };
  const opened = await openHostApp({
    host,
    database: options.path ?? ':memory:',
    seed: options.scale === undefined ? () => demoSeed(options.now ?? new Date()) : () => scaledSeed(options.scale!),
    ...(options.onQuery === undefined ? {} : { onQuery: options.onQuery }),
  });
  return opened.app;
}
