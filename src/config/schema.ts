import { z } from 'zod';
import { suggestionList } from 'graphql/jsutils/suggestionList.js';
import { PlumbError } from '../core/index.js';
import { engineSettingsSchema } from '../engine/index.js';
import type { EngineSettingsInput } from '../engine/index.js';
import { toolSettingsSchema } from '../tools/index.js';
import type { ToolSettingsInput } from '../tools/index.js';
import { appSettingsShape } from './app-settings.js';
import { serverSettingsShape } from './server-settings.js';
import { mcpSettingsShape } from './mcp-settings.js';
import { telemetrySettingsShape } from './telemetry-settings.js';
import { plannedSettingsShape } from './planned-settings.js';
import { mapPortedSettings } from './ported-settings.js';

/**
 * The whole `plumb.config.*` object: which app and database, the server's own settings, the
 * engine's and the tools', each declared once by its folder.
 */
export const plumbConfigSchema = z.strictObject({
  ...appSettingsShape,
  ...engineSettingsSchema.shape,
  ...toolSettingsSchema.shape,
  ...serverSettingsShape,
  ...mcpSettingsShape,
  ...telemetrySettingsShape,
  ...plannedSettingsShape,
});

export type PlumbConfigInput = z.input<typeof plumbConfigSchema>;
export type PlumbConfig = Readonly<z.output<typeof plumbConfigSchema>>;

/** Typed configuration files: `export default defineConfig({ … })` gets every key and its type checked by the editor. */
export function defineConfig(config: PlumbConfigInput): PlumbConfigInput {
  return config;
}

/** One problem with a configuration, naming the key. */
export interface ConfigProblem {
  readonly key: string;
  readonly message: string;
}

/**
 * Non-throwing: the parsed configuration with a notice per ported setting it read as a native one
 * (`maxRecentMessages`, `summarizeAfter`), or every problem with its key.
 */
export function safeParseConfig(input: unknown): { ok: true; config: PlumbConfig; notices: readonly string[] } | { ok: false; problems: readonly ConfigProblem[] } {
  const given = input ?? {};
  const ported = given !== null && typeof given === 'object' && !Array.isArray(given) ? mapPortedSettings(given as Record<string, unknown>) : { settings: given, notices: [], problems: [] };
  const result = plumbConfigSchema.safeParse(ported.settings);
  // A host definition given as `app` keeps its own objects (tools, managers) unfrozen.
  if (result.success && ported.problems.length === 0) return { ok: true, config: Object.freeze(Object.fromEntries(Object.entries(result.data).map(([key, value]) => [key, key === 'app' ? value : deepFreeze(value)]))) as PlumbConfig, notices: ported.notices };
  const known = Object.keys(plumbConfigSchema.shape).sort();
  const problems: ConfigProblem[] = [...ported.problems];
  if (result.success) return { ok: false, problems };
  for (const issue of result.error.issues) {
    const base = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        const full = base === '' ? key : `${base}.${key}`;
        // The closest known names at that level (graphql-js's own "did you mean" ranking), else the whole list.
        const names = base === '' ? known : keysAt(issue.path);
        const close = suggestionList(key, names).slice(0, 3);
        const named = (name: string): string => `'${base === '' ? name : `${base}.${name}`}'`;
        const hint = close.length > 0 ? ` Did you mean ${close.map(named).join(' or ')}?` : names.length > 0 ? ` ${base === '' ? 'Settings' : `Keys of '${base}'`}: ${names.join(', ')}.` : '';
        problems.push({ key: full, message: `Unknown setting '${full}'.${hint}` });
      }
      continue;
    }
    const key = base === '' ? '(config)' : base;
    problems.push({ key, message: `Invalid value for '${key}': ${issue.message}.` });
  }
  return { ok: false, problems };
}

/** The keys the schema knows for the object at `path` (an object setting such as `rateLimit`), or none. */
function keysAt(path: readonly PropertyKey[]): string[] {
  let schema: z.ZodType = plumbConfigSchema;
  for (const part of path) {
    schema = unwrapped(schema);
    if (!(schema instanceof z.ZodObject) || typeof part !== 'string') return [];
    const next = (schema.shape as Record<string, z.ZodType | undefined>)[part];
    if (next === undefined) return [];
    schema = next;
  }
  schema = unwrapped(schema);
  return schema instanceof z.ZodObject ? Object.keys(schema.shape).sort() : [];
}

function unwrapped(schema: z.ZodType): z.ZodType {
  let current = schema;
  while (current instanceof z.ZodOptional || current instanceof z.ZodDefault || current instanceof z.ZodPrefault || current instanceof z.ZodNullable) current = current.unwrap() as z.ZodType;
  return current;
}

/** Where a configuration's notices go unless told otherwise: one line each on stderr. */
export const stderrNotice = (notice: string): void => {
  process.stderr.write(`plumb: notice: ${notice}\n`);
};

/**
 * Parses, defaults and freezes a configuration; throws `invalid_config` naming every bad key. A
 * ported setting read as a native one is said through `onNotice` (default: a line on stderr).
 */
export function parseConfig(input: unknown, onNotice: (notice: string) => void = stderrNotice): PlumbConfig {
  const result = safeParseConfig(input);
  if (result.ok) {
    for (const notice of result.notices) onNotice(notice);
    return result.config;
  }
  throw new PlumbError('invalid_config', result.problems.map((problem) => problem.message).join(' '), { details: { problems: result.problems } });
}

/** The engine's and the tools' parts of a configuration, for `createEngine`. */
export function splitConfig(config: PlumbConfig): { engine: EngineSettingsInput; tools: ToolSettingsInput } {
  const pick = (keys: readonly string[]): Record<string, unknown> => Object.fromEntries(keys.map((key) => [key, (config as Record<string, unknown>)[key]]));
  return {
    engine: pick(Object.keys(engineSettingsSchema.shape)),
    tools: pick(Object.keys(toolSettingsSchema.shape)),
  };
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value as object)) deepFreeze(child);
  }
  return value;
}
