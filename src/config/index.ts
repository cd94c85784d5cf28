/**
 * The configuration: finding and loading `plumb.config.*`, the one schema of every setting, the
 * host definition its `app` names, and opening that app over its database.
 */
export { plumbConfigSchema, defineConfig, parseConfig, safeParseConfig, splitConfig } from './schema.js';
export type { PlumbConfig, PlumbConfigInput, ConfigProblem } from './schema.js';
export { appSettingsShape, actorSettingSchema } from './app-settings.js';
export type { Authenticate, AuthRequest, AuthResult } from './app-settings.js';
export { serverSettingsShape, rateLimitSchema, auditSchema, auditLevels, normalizeUrl } from './server-settings.js';
export type { PermissionCallable, PermissionScope, AuditLevel, AuditRecord, AuditLoggerFn } from './server-settings.js';
export { mcpSettingsShape, mcpSchema, mcpServerSettingSchema } from './mcp-settings.js';
export type { McpServerSetting } from './mcp-settings.js';
export { telemetrySettingsShape, telemetrySchema } from './telemetry-settings.js';
export { configFileNames, findConfigFile } from './find.js';
export { interpolateEnvironment, loadDotEnv } from './environment.js';
export { loadConfig, loadHost, readConfigFile, readSettings, merge } from './load.js';
export type { LoadedConfig, LoadOptions, RawSettings } from './load.js';
export { createModuleLoader, settingFunction } from './modules.js';
export type { ModuleExports, ModuleLoader, RunningPlumb } from './modules.js';
export { defineHost, hostProblems, tableModes } from './host.js';
export type { HostDefinition, SeedBatch, TableMode } from './host.js';
export { parseDatabaseUrl, redactUrl } from './database-url.js';
export type { DatabaseLocation } from './database-url.js';
export { openHostApp, openDatabase } from './open-app.js';
export type { OpenedApp, OpenAppOptions } from './open-app.js';
export { actorNames, namedActor } from './actors.js';
export { checkConfiguration } from './check.js';
export type { CheckOptions, CheckProblem, ConnectMcpServers } from './check.js';
export { configErrorCodes } from './errors.js';
export type { ConfigErrorCode } from './errors.js';
export { storeLocation, defaultStorePath } from './store-location.js';
export { loadMigrationFiles, migrationFileNames, migrationsFolder } from './migration-files.js';
