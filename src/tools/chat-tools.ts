import type { ChatApp } from './chat-app.js';
import type { Tool } from './define-tool.js';
import { createDispatcher } from './dispatcher.js';
import type { Dispatcher, DispatcherOptions } from './dispatcher.js';
import { createFindPathTool, createGetManagerSchemaTool, createSearchManagersTool } from './discovery-tools.js';
import { createMutateTool, validateMutationSettings } from './mutate-tool.js';
import { createDirectQueryTool, createQueryTool } from './query-tool.js';
import { buildSchemaIndex } from './schema-index.js';
import type { SchemaIndex } from './schema-index.js';
import { parseToolSettings } from './settings.js';
import type { ToolSettings, ToolSettingsInput } from './settings.js';
import { snakeName } from './tokens.js';

export interface ChatToolSet {
  readonly tools: readonly Tool[];
  readonly index: SchemaIndex;
  readonly settings: ToolSettings;
}

/**
 * The grounded tool set of an app for its strategy. `discovery`: search_managers,
 * get_manager_schema, find_path, query, mutate (in that order). `direct`: `query_<manager>` per
 * exposed manager, then `mutate` when any mutation is allowed. Settings are validated against the
 * app here, at startup.
 */
export function createChatTools(app: ChatApp, settingsInput?: ToolSettings | ToolSettingsInput, index?: SchemaIndex): ChatToolSet {
  const settings = parseToolSettings(settingsInput);
  validateMutationSettings(app, settings);
  const schemaIndex = index ?? buildSchemaIndex(app.managers);
  if (settings.toolStrategy === 'discovery') {
    return {
      index: schemaIndex,
      settings,
      tools: Object.freeze([
        createSearchManagersTool(schemaIndex, settings.maxRelationDepth),
        createGetManagerSchemaTool(schemaIndex),
        createFindPathTool(schemaIndex),
        createQueryTool(app, schemaIndex, settings),
        createMutateTool(app, settings),
      ]),
    };
  }
  const tools: Tool[] = schemaIndex.all.map((manager) => createDirectQueryTool(app, schemaIndex, settings, manager, `query_${snakeName(manager.entry.manager)}`.slice(0, 64)));
  if (settings.allowedMutations.length > 0) tools.push(createMutateTool(app, settings));
  return { index: schemaIndex, settings, tools: Object.freeze(tools) };
}

export interface ChatDispatcherOptions extends Omit<DispatcherOptions, 'tools' | 'app' | 'settings'> {
  readonly app: ChatApp;
  readonly settings?: ToolSettings | ToolSettingsInput | undefined;
  /** The application's own tools: they join the same dispatcher and the same rules. */
  readonly hostTools?: readonly Tool[] | undefined;
  readonly index?: SchemaIndex | undefined;
}

/** The chat tools of an app plus its host tools behind one dispatcher. */
export function createChatDispatcher(options: ChatDispatcherOptions): Dispatcher & { readonly index: SchemaIndex } {
  const set = createChatTools(options.app, options.settings, options.index);
  const dispatcher = createDispatcher({ ...options, tools: [...set.tools, ...(options.hostTools ?? [])], app: options.app, settings: set.settings });
  return { ...dispatcher, index: set.index };
}
