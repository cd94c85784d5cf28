/**
 * Plumb's main entry: define the data and tools an assistant may use, the host and its
 * configuration, and run turns over them. Heavier parts have their own entries: `plumb-agent/server`,
 * `plumb-agent/router`, `plumb-agent/providers`, `plumb-agent/postgres`, `plumb-agent/demo`, `plumb-agent/mcp`, `plumb-agent/telemetry`,
 * `plumb-agent/client` (the browser's), `plumb-agent/testing` (conformance suites, under vitest).
 */
export { PlumbError, isPlumbError, anonymous, userActor, isAuthenticated, hasRole, actorKey, canonicalJson, canonicalHash } from './core/index.js';
export type { Actor, UserActor, AnonymousActor, JsonValue, JsonObject, PlumbErrorJSON } from './core/index.js';

export { defineManager, defineApp, sqlite, filterKeys, fieldTypes, managerCatalogSchema, withCatalog } from './data/index.js';
export type { App, AppOptions, CatalogSource, Database, SqliteDatabase, SqliteOptions, DataSettings, FieldSpec, FieldType, Manager, ManagerCatalog, ManagerPermissions, ManagerSpec, RelationSpec, RowCondition } from './data/index.js';

export { defineTool, toolError, askUser, createDispatcher, createChatTools, createChatDispatcher, createMemoryConfirmationStore, createSqliteConfirmationStore, renderTools } from './tools/index.js';
export type { Tool, ToolSpec, ToolContext, ToolEffect, ToolResult, QuestionSpec, QuestionResult, ToolSettings, Dispatcher, DispatchInstrument, InstrumentedCall, ConfirmationStore } from './tools/index.js';

export { createEngine, collect, engineSettingsSchema } from './engine/index.js';
export type { Engine, EngineOptions, EngineSettings, ChatEvent, Collected } from './engine/index.js';

export { createMemoryStore, openSqliteStore } from './store/index.js';

export { defineConfig, defineHost, openHostApp } from './config/index.js';
export { loadConfig, runningPlumb } from './running-plumb.js';
export type { Authenticate, AuthRequest, AuthResult, HostDefinition, OpenedApp, PlumbConfig, PlumbConfigInput, SeedBatch, TableMode } from './config/index.js';

/** The zod Plumb validates tool inputs with, so that a host's schemas and Plumb's are one copy. */
export { z } from 'zod';
/** The kysely that migration files (`plumb migrate generate`) are written against. */
export type { Kysely } from 'kysely';
export type { Store } from './store/index.js';

export type { Provider, ProviderEvent, ChatMessage, CompletionRequest, ToolDefinition } from './providers/index.js';
