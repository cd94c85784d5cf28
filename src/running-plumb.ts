import { loadConfig as loadSettings } from './config/index.js';
import type { LoadedConfig, LoadOptions, RunningPlumb } from './config/index.js';

/**
 * The faces of the running Plumb that host modules (the app, `authenticate`, `permission`, the
 * audit logger, migrations) get when they import Plumb by name: the one place those names live.
 * Loaded on first use, so that a command that loads no host module never imports the server.
 */
export const runningPlumb: RunningPlumb = async () => {
  const [plumb, server, router, providers, demo, client, mcp, telemetry] = await Promise.all([
    import('./index.js'),
    import('./server/index.js'),
    import('./router/index.js'),
    import('./providers/index.js'),
    import('./demo/index.js'),
    import('./client/index.js'),
    import('./mcp/index.js'),
    import('./telemetry/index.js'),
  ]);
  return {
    'plumb-agent': plumb,
    'plumb-agent/server': server,
    'plumb-agent/router': router,
    'plumb-agent/providers': providers,
    'plumb-agent/demo': demo,
    'plumb-agent/client': client,
    'plumb-agent/mcp': mcp,
    'plumb-agent/telemetry': telemetry,
  };
};

/** `loadConfig` as the package face offers it: host modules that import Plumb get this one. */
export function loadConfig(options: LoadOptions = {}): Promise<LoadedConfig> {
  return loadSettings({ runningPlumb, ...options });
}
