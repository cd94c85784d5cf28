import { z } from 'zod';
import { defineTool } from './define-tool.js';
import type { Tool } from './define-tool.js';
import { findPath } from './find-path.js';
import type { SchemaIndex } from './schema-index.js';
import { searchManagers } from './search-managers.js';

/** `maxDepth`: the `maxRelationDepth` setting; relation paths up to it are searched too. */
export function createSearchManagersTool(index: SchemaIndex, maxDepth?: number): Tool {
  return defineTool({
    name: 'search_managers',
    description: 'Find the managers (data types) that match words of the question; answers up to 10 summaries with fields, relations and filters.',
    input: z.object({ query: z.string().max(500).describe('Words to look for, e.g. "parts material supplier".') }),
    effect: 'read',
    handler: (args) => searchManagers(index, args.query, maxDepth),
  });
}

export function createGetManagerSchemaTool(index: SchemaIndex): Tool {
  return defineTool({
    name: 'get_manager_schema',
    description: "One manager's fields, relations and filter keys; null when no exposed manager has that name.",
    input: z.object({ manager: z.string().max(200).describe('Manager name, e.g. "Part".') }),
    effect: 'read',
    handler: (args) => index.entry(args.manager) ?? null,
  });
}

export function createFindPathTool(index: SchemaIndex): Tool {
  return defineTool({
    name: 'find_path',
    description:
      'The relation names that lead from one manager to another (shortest path); [] for the same manager, null when there is none. Use them in nested fields or filter keys (relation__field).',
    input: z.object({
      from_manager: z.string().max(200).describe('Manager to start from.'),
      to_manager: z.string().max(200).describe('Manager to reach.'),
    }),
    effect: 'read',
    handler: (args) => findPath(index, args.from_manager, args.to_manager),
  });
}
