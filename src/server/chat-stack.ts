import { dirname, isAbsolute, resolve } from 'node:path';
import { mkdirSync, readFileSync } from 'node:fs';
import { PlumbError } from '../core/index.js';
import type { App } from '../data/index.js';
import { createAppReader, createEngine } from '../engine/index.js';
import type { ActorRow } from '../engine/index.js';
import type { AppReader, Engine, EngineHooks } from '../engine/index.js';
import type { RulebookInput, VocabularyFile } from '../router/index.js';
import { configuredPlannedRunner } from '../planned/index.js';
import { createProvider } from '../providers/index.js';
import type { Provider, ProviderConfig } from '../providers/index.js';
import { createMemoryStore, openSqliteStore } from '../store/index.js';
import type { Store } from '../store/index.js';
import { createChatTools } from '../tools/index.js';
import type { Tool, ToolSettingsInput } from '../tools/index.js';
import { splitConfig, storeLocation } from '../config/index.js';
import { createTelemetry } from '../telemetry/index.js';
import type { Telemetry } from '../telemetry/index.js';
import type { PlumbConfig } from '../config/index.js';
import { stableSecret } from './stable-secret.js';
import { announceWrites } from './announcing-store.js';
import type { ThreadEvents } from './thread-events.js';

/** What a host application adds to the chat stack besides its data: its own tools and its router files. */
export interface ChatHost {
  /** The host's tools: offered to the model and planned by the router. */
  readonly tools?: readonly Tool[];
  /** Tool settings that replace the configuration's (allowed and confirmed mutations, bounds). */
  readonly toolSettings?: ToolSettingsInput;
  /** Router words (YAML text or parsed); replaces the `vocabulary` file setting. */
  readonly vocabulary?: string | VocabularyFile | undefined;
  /** Router rulebook (YAML text or parsed); replaces the `rulebook` file setting. */
  readonly rulebook?: string | RulebookInput | undefined;
  /** How a signed-in actor maps to their rows (`actorRow` on the host definition). */
  readonly actorRow?: ActorRow | undefined;
  /** The host's example questions: those the router reads are offered when a turn is not read. */
  readonly examples?: readonly string[] | undefined;
}

export interface ChatStack extends AsyncDisposable {
  readonly engine: Engine;
  readonly store: Store;
  readonly provider: Provider | undefined;
  /** The router over the app's data and the host's tools; undefined when the `router` setting is off. */
  readonly reader: AppReader | undefined;
  /** Closes the engine, then the store (not the app). */
  close(): Promise<void>;
}

/**
 * The engine a configuration describes: the journal at `store`, the configured provider (or the
 * one given), the app's chat tools and the host's, the app reader that reads turns first (unless
 * `router` is off), the engine and tool settings.
 */
export async function createChatStack(options: {
  readonly app: App;
  readonly config: PlumbConfig;
  /** Overrides `config.provider` (a ready provider, e.g. a budgeted one). */
  readonly provider?: Provider;
  /** Wraps the provider (e.g. `tokenBudget.wrap`). */
  readonly wrapProvider?: (provider: Provider) => Provider;
  readonly hooks?: EngineHooks;
  readonly host?: ChatHost;
  readonly cwd?: string;
  /** Announces every committed write to a thread there, so that other processes can follow it (`followThread`). */
  readonly events?: ThreadEvents;
  /** Spans for turns, model and tool calls; default: over the global tracer provider, with the `telemetry` setting. */
  readonly telemetry?: Telemetry;
  /** What time it is for the engine (ms since the epoch); default `Date.now` (`plumb ask --now`). */
  readonly clock?: () => number;
}): Promise<ChatStack> {
  const { app, config } = options;
  const cwd = options.cwd ?? process.cwd();
  const journal = storeLocation(config, cwd);
  const journalPath = journal.kind === 'memory' ? ':memory:' : journal.kind === 'postgres' ? journal.url : journal.path;
  const configured =
    options.provider ?? (config.provider === null ? undefined : await createProvider({ ...(config.providerConfig as Omit<ProviderConfig, 'provider'>), provider: config.provider, cwd }));
  const telemetry = options.telemetry ?? createTelemetry({ captureContent: config.telemetry.captureContent });
  const wrap = (model: Provider): Provider => {
    const traced = telemetry.traceProvider(model);
    return options.wrapProvider === undefined ? traced : options.wrapProvider(traced);
  };
  const provider = configured === undefined ? undefined : wrap(configured);
  // Every role's model goes through the same wrapping (spans, a token budget) as the plain one.
  const planned = await configuredPlannedRunner(config, { managers: app.managers, cwd, wrap });
  const { engine: engineSettings, tools: configToolSettings } = splitConfig(config);
  const host = options.host ?? {};
  const tools = createChatTools(app, host.toolSettings ?? configToolSettings);
  const hostTools = host.tools ?? [];
  const reader: AppReader | undefined =
    config.router === 'off'
      ? undefined
      : await createAppReader({
          app,
          hostTools,
          modelTools: tools.tools,
          // A journal on PostgreSQL keeps no file: the secret's file is then in the working folder (one machine; set sessionSecret for several).
          secret: stableSecret({ configured: config.sessionSecret, database: journal.kind === 'postgres' ? resolve(cwd, '.plumb/postgres-journal') : journalPath }),
          valuesTtlSeconds: config.valuesTtlSeconds,
          maxValuesPerField: config.maxValuesPerField,
          toolSettings: { maxResults: tools.settings.maxResults, maxResultBytes: tools.settings.maxResultBytes, queryTimeoutSeconds: tools.settings.queryTimeoutSeconds },
          ...definedAs('vocabulary', routerFile('vocabulary', host.vocabulary, config.vocabulary, cwd)),
          ...definedAs('rulebook', routerFile('rulebook', host.rulebook, config.rulebook, cwd)),
          ...(host.actorRow === undefined ? {} : { actorRow: host.actorRow }),
          ...(host.examples === undefined ? {} : { examples: host.examples }),
        });
  let store: Store;
  if (journal.kind === 'memory') store = createMemoryStore();
  else if (journal.kind === 'postgres') {
    // Loaded only here, so that pg loads only for a journal on PostgreSQL.
    const { openPostgresStore } = await import('../postgres/index.js');
    store = await openPostgresStore({ url: journal.url, durability: config.durability, max: config.storeConnections });
  } else {
    mkdirSync(dirname(journal.path), { recursive: true });
    store = await openSqliteStore({ path: journal.path, durability: config.durability });
  }
  if (options.events !== undefined) store = announceWrites(store, options.events);
  let engine: Engine;
  try {
    engine = telemetry.traceEngine(createEngine({
      app,
      store,
      tools: [...tools.tools, ...hostTools],
      settings: engineSettings,
      toolSettings: tools.settings,
      ...(reader === undefined ? {} : { reader }),
      ...(provider === undefined ? {} : { provider }),
      ...(planned === undefined ? {} : { planned }),
      ...(options.hooks === undefined ? {} : { hooks: options.hooks }),
      ...(options.clock === undefined ? {} : { clock: options.clock }),
      instrumentTools: telemetry.instrumentTools,
    }));
  } catch (error) {
    await store.close();
    throw error;
  }
  await engine.ready;
  let closed: Promise<void> | undefined;
  const close = (): Promise<void> =>
    (closed ??= (async () => {
      await engine.close();
      await store.close();
    })());
  return { engine, store, provider, reader, close, [Symbol.asyncDispose]: close };
}

/** The host's router file: what it gave, else the configured file's text, else undefined. */
function routerFile<T>(key: 'vocabulary' | 'rulebook', given: T | undefined, path: string | null, cwd: string): T | string | undefined {
  if (given !== undefined) return given;
  if (path === null) return undefined;
  const file = isAbsolute(path) ? path : resolve(cwd, path);
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new PlumbError('config_load_failed', `Could not read the ${key} file '${file}' (setting '${key}'): ${(error as Error).message}.`, { cause: error });
  }
}

function definedAs<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}
