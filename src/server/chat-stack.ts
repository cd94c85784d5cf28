import { dirname } from 'node:path';
import { mkdirSync } from 'node:fs';
import type { App } from '../data/index.js';
import { createEngine } from '../engine/index.js';
import type { Engine, EngineHooks } from '../engine/index.js';
import { createProvider } from '../providers/index.js';
import type { Provider, ProviderConfig } from '../providers/index.js';
import { createMemoryStore, openSqliteStore } from '../store/index.js';
import type { Store } from '../store/index.js';
import { createChatTools } from '../tools/index.js';
import { splitConfig } from './config.js';
import type { PlumbConfig } from './config.js';

export interface ChatStack extends AsyncDisposable {
  readonly engine: Engine;
  readonly store: Store;
  readonly provider: Provider | undefined;
  /** Closes the engine, then the store (not the app). */
  close(): Promise<void>;
}

/**
 * The engine a configuration describes: the store at `database`, the configured provider (or the
 * one given), the app's chat tools, the engine and tool settings.
 */
export async function createChatStack(options: {
  readonly app: App;
  readonly config: PlumbConfig;
  /** Overrides `config.provider` (a ready provider, e.g. a budgeted one). */
  readonly provider?: Provider;
  /** Wraps the provider (e.g. `tokenBudget.wrap`). */
  readonly wrapProvider?: (provider: Provider) => Provider;
  readonly hooks?: EngineHooks;
  readonly cwd?: string;
}): Promise<ChatStack> {
  const { app, config } = options;
  const cwd = options.cwd ?? process.cwd();
  const configured =
    options.provider ?? (config.provider === null ? undefined : await createProvider({ ...(config.providerConfig as Omit<ProviderConfig, 'provider'>), provider: config.provider, cwd }));
  const provider = configured === undefined || options.wrapProvider === undefined ? configured : options.wrapProvider(configured);
  let store: Store;
  if (config.database === ':memory:') store = createMemoryStore();
  else {
    mkdirSync(dirname(config.database), { recursive: true });
    store = openSqliteStore({ path: config.database });
  }
  const { engine: engineSettings, tools: toolSettings } = splitConfig(config);
  const tools = createChatTools(app, toolSettings);
  const engine = createEngine({
    app,
    store,
    tools: tools.tools,
    settings: engineSettings,
    toolSettings: tools.settings,
    ...(provider === undefined ? {} : { provider }),
    ...(options.hooks === undefined ? {} : { hooks: options.hooks }),
  });
  await engine.ready;
  let closed: Promise<void> | undefined;
  const close = (): Promise<void> =>
    (closed ??= (async () => {
      await engine.close();
      await store.close();
    })());
  return { engine, store, provider, close, [Symbol.asyncDispose]: close };
}
