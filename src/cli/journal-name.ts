import { redactUrl, storeLocation } from '../config/index.js';
import type { PlumbConfig } from '../config/index.js';

/** The configured journal as a command's report names it: its file, `:memory:`, or its URL without the password. */
export function journalName(config: PlumbConfig, root: string): string {
  const location = storeLocation(config, root);
  return location.kind === 'sqlite' ? location.path : location.kind === 'memory' ? ':memory:' : redactUrl(location.url);
}
