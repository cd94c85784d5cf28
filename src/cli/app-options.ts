import { Option } from 'commander';
import type { Command } from 'commander';
import type { Actor } from '../core/index.js';
import type { App } from '../data/index.js';
import { createDemoApp, defaultDemoDatabasePath, demoActor, demoActorNames } from '../demo/index.js';
import { CliUsageError } from './program.js';

/** The options every command that opens the app shares. */
export interface AppOptions {
  readonly demo?: boolean;
  readonly db?: string;
  readonly as?: string;
  readonly scale?: string;
}

const scaleHelp = 'seed a new demo database with the large synthetic shop: per unit, 1,000 parts and 10,000 order lines (100 → 100,000 parts, 1,000,000 lines)';

export function addAppOptions(command: Command): Command {
  return command
    .option('--demo', 'use the embedded demo shop (SQLite, seeded on first use)')
    .option('--db <path>', `the demo's SQLite file (default ${defaultDemoDatabasePath}; ':memory:' for a throwaway one)`)
    .option('--scale <n>', scaleHelp)
    .addOption(new Option('--as <user>', 'act as this demo user').choices(demoActorNames.map(String)).default('anonymous'));
}

export async function openApp(options: AppOptions): Promise<App> {
  if (options.demo !== true && options.db === undefined) {
    throw new CliUsageError('say which app to open: --demo (or --db PATH for the demo over another SQLite file)');
  }
  const scale = parseScale(options.scale);
  return createDemoApp({ path: options.db ?? defaultDemoDatabasePath, ...(scale === undefined ? {} : { scale }) });
}

export { scaleHelp };

function parseScale(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const scale = Number(value);
  if (!Number.isInteger(scale) || scale < 1 || scale > 1000) throw new CliUsageError(`--scale must be an integer from 1 to 1000, got '${value}'`);
  return scale;
}

export function actorFrom(options: AppOptions): Actor {
  const name = options.as ?? 'anonymous';
  const actor = demoActor(name);
  if (actor === undefined) throw new CliUsageError(`unknown user '${name}'; choose one of ${demoActorNames.join(', ')}`);
  return actor;
}

export function parseJsonOption(value: string, name: string): unknown {
  try {
    return JSON.parse(value) as unknown;
  } catch (error) {
    throw new CliUsageError(`${name} is not valid JSON: ${(error as Error).message}`);
  }
}
