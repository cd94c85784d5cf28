import { PlumbError } from '../core/index.js';
import { tableModes } from '../data/index.js';
import type { App, CatalogSource, DataSettingsInput, ManagerSpec, TableMode } from '../data/index.js';
import type { RulebookInput, VocabularyFile } from '../router/index.js';
import type { Tool } from '../tools/index.js';
import type { ActorRow } from '../reading/index.js';
import type { PlumbConfigInput } from './schema.js';

/** Rows for one manager, loaded in order (a `one` relation as the related id). */
export interface SeedBatch {
  readonly manager: string;
  readonly rows: Iterable<Readonly<Record<string, unknown>>>;
}

export { tableModes };
export type { TableMode };

/**
 * What a host application gives Plumb: the default export of the module the `app` setting names.
 * Everything but `managers` is optional.
 */
export interface HostDefinition {
  /** The managers over the app's tables (`defineManager`). */
  readonly managers: readonly ManagerSpec[];
  /**
   * The managers' catalogue (aliases, domain, useWhen, distinguishFrom), laid over each manager's own
   * `catalog`: an object keyed by manager name, or a function `(manager) => entry | undefined`
   * called once per chat-exposed manager. The router, `search_managers` and the planner read it.
   */
  readonly catalog?: CatalogSource;
  /**
   * `own` (default): Plumb creates the tables of a new database and changes them only through
   * migrations (`plumb migrate`); it creates none in a database that already holds other tables.
   * `create`: as `own`, and missing tables are created beside tables that are not the app's.
   * `attach`: the tables exist already (the host's own); Plumb checks each mapped table and column
   * on start and never creates or alters one.
   */
  readonly tables?: TableMode;
  /** The host's own tools (`defineTool`), or a function building them over the opened app. */
  readonly tools?: readonly Tool[] | ((app: App) => readonly Tool[]);
  /** Router words (vocabulary YAML text or the parsed object), merged over the words generated from the schema. */
  readonly vocabulary?: string | VocabularyFile;
  /** The router's rulebook (YAML text or parsed). */
  readonly rulebook?: string | RulebookInput;
  /** Rows loaded when every table of an `own` app is empty (a new database): development and demo data. */
  readonly seed?: Iterable<SeedBatch> | (() => Iterable<SeedBatch> | Promise<Iterable<SeedBatch>>);
  /** Defaults for any configuration setting (the configuration file and the command line win). */
  readonly settings?: Omit<PlumbConfigInput, 'app'>;
  /** Questions the console offers on an empty conversation. */
  readonly examples?: readonly string[];
  /** Data-layer bounds (page sizes, rows per request). */
  readonly data?: DataSettingsInput;
  /**
   * The asking person's rows, for first-person turns ("my bookings"): `{ manager, field }` (the rows
   * whose `field` is the actor's id) or a function `(actor) => ({ manager, filter }) | undefined`.
   */
  readonly actorRow?: ActorRow;
}

const hostKeys = new Set(['managers', 'catalog', 'tables', 'tools', 'vocabulary', 'rulebook', 'seed', 'settings', 'examples', 'data', 'actorRow']);

/** Checks a host definition's shape and returns it frozen; throws `invalid_host` naming every problem. */
export function defineHost(definition: HostDefinition): HostDefinition {
  const problems = hostProblems(definition);
  if (problems.length > 0) throw new PlumbError('invalid_host', `Invalid host definition:\n- ${problems.join('\n- ')}`, { details: { problems } });
  return Object.freeze({ ...definition });
}

/** What is wrong with a host definition's shape (the managers themselves are checked by defineApp). */
export function hostProblems(value: unknown): string[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return ['A host definition is an object: export default defineHost({ managers: [...] }).'];
  const definition = value as Record<string, unknown>;
  const problems: string[] = [];
  for (const key of Object.keys(definition)) if (!hostKeys.has(key)) problems.push(`Unknown key '${key}'. Keys: ${[...hostKeys].join(', ')}.`);
  if (!Array.isArray(definition.managers) || definition.managers.length === 0) problems.push("'managers' is a non-empty list of defineManager(…) declarations.");
  if (definition.tables !== undefined && !(tableModes as readonly unknown[]).includes(definition.tables)) problems.push(`'tables' is ${tableModes.map((mode) => `'${mode}'`).join(', ')}, got ${JSON.stringify(definition.tables)}.`);
  const catalog = definition.catalog;
  if (catalog !== undefined && typeof catalog !== 'function' && (typeof catalog !== 'object' || catalog === null || Array.isArray(catalog))) {
    problems.push("'catalog' is an object keyed by manager name ({ Part: { aliases: ['component'] } }) or a function (manager) => entry | undefined.");
  }
  if (definition.tools !== undefined && typeof definition.tools !== 'function' && !Array.isArray(definition.tools)) problems.push("'tools' is a list of defineTool(…) tools or a function (app) => tools.");
  for (const key of ['vocabulary', 'rulebook'] as const) {
    const given = definition[key];
    if (given !== undefined && typeof given !== 'string' && (typeof given !== 'object' || given === null)) problems.push(`'${key}' is YAML text or the parsed object.`);
  }
  if (definition.seed !== undefined && typeof definition.seed !== 'function' && typeof (definition.seed as { [Symbol.iterator]?: unknown })?.[Symbol.iterator] !== 'function') {
    problems.push("'seed' is a list of { manager, rows } batches or a function returning one.");
  }
  if (definition.settings !== undefined && (typeof definition.settings !== 'object' || definition.settings === null || Array.isArray(definition.settings))) problems.push("'settings' is an object of configuration settings.");
  if (definition.examples !== undefined && (!Array.isArray(definition.examples) || definition.examples.some((example) => typeof example !== 'string'))) problems.push("'examples' is a list of strings.");
  const row = definition.actorRow;
  if (row !== undefined && typeof row !== 'function' && (typeof row !== 'object' || row === null || typeof (row as { manager?: unknown }).manager !== 'string' || typeof (row as { field?: unknown }).field !== 'string' || Object.keys(row).length !== 2)) {
    problems.push("'actorRow' is { manager: 'Guest', field: 'email' } (the rows whose field is the actor's id) or a function (actor) => ({ manager, filter }) | undefined.");
  }
  return problems;
}
