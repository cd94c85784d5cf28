import type { ErrorCatalogue } from '../core/index.js';

/** Codes of finding, loading and checking a configuration and the app it names. */
export const configErrorCodes = {
  invalid_config: 'A configuration key is unknown or its value is invalid; the message names the key.',
  config_not_found: 'The configuration file named by --config does not exist.',
  config_ambiguous: 'One folder holds more than one plumb.config.* file, so which one applies would be a guess.',
  config_load_failed: 'The configuration file could not be read, parsed or imported.',
  config_env_missing: 'A setting uses ${NAME} and the environment variable NAME is not set (and the reference gives no fallback).',
  module_not_found: 'A module-path setting (app, authenticate, permission, audit.logger, a provider, a migration) names a file that does not exist.',
  module_load_failed: 'A module named by a setting exists but could not be imported (a syntax error, a failing import, an exception at load).',
  module_export_missing: 'A module named by a setting does not export what the setting needs (a host definition, a function).',
  invalid_host: 'The host definition the app setting names is not of the expected shape; the message lists every problem.',
  invalid_database_url: 'A database or store setting is neither a SQLite path, sqlite:PATH, :memory: nor a postgres:// URL.',
  database_not_found: 'An app that attaches to existing tables names a SQLite file that does not exist.',
  no_exposed_data: 'plumb check: the app exposes no manager to chat, so the assistant can see nothing.',
  invalid_allow_list: 'plumb check: allowedMutations or confirmMutations names a mutation the app does not generate or allow.',
  provider_dependency_missing: 'plumb check: the configured provider needs a package that is not installed.',
  provider_load_failed: 'plumb check: the configured provider could not be created or reports a configuration problem.',
  redis_unreachable: 'plumb check: the configured redis URL did not answer a PING within redisTimeoutMs.',
} as const satisfies ErrorCatalogue;

export type ConfigErrorCode = keyof typeof configErrorCodes;
