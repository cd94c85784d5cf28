import { z } from 'zod';
import type { Actor, JsonObject } from '../core/index.js';
import type { ChatApp } from './chat-app.js';
import { defineTool, toolError } from './define-tool.js';
import type { Tool } from './define-tool.js';
import { argument, documentOfShape, field, operation, planSelections, variableDefinition } from './graphql-ast.js';
import { raiseGraphqlErrors } from './graphql-outcome.js';
import { normalizeFilterKey, planSelection, requireManager } from './query-plan.js';
import type { FieldSelection } from './query-plan.js';
import type { IndexedManager, SchemaIndex } from './schema-index.js';
import type { ToolSettings } from './settings.js';

const selection: z.ZodType<FieldSelection> = z
  .lazy(() => z.union([z.string().min(1), z.record(z.string(), z.array(selection))]))
  .meta({ id: 'field_selection', description: 'A field name, or { relation: [field selections] } for a related manager.' });

const filterMap = z.record(z.string(), z.unknown());

/** The `query` input without `manager` (the shape of each direct-strategy tool). */
export const queryShape = {
  fields: z
    .array(selection)
    .min(1)
    .optional()
    .describe('Field names to return; omit it (or "*", top level only) for every scalar field; { relation: [fields] } for related rows.'),
  filters: filterMap.optional().describe('Lookup keys to keep rows by, e.g. { "name__icontains": "bolt", "material__name": "Steel" }.'),
  exclude: filterMap.optional().describe('Lookup keys to drop rows by.'),
  limit: z.int().positive().optional().describe('Rows to return; defaults to and is capped by the maximum page size.'),
  offset: z.int().nonnegative().optional().describe('Rows to skip (for the next page).'),
};

export interface QueryArguments {
  /** Absent: every scalar field, as `["*"]`. */
  readonly fields?: readonly FieldSelection[] | undefined;
  readonly filters?: Readonly<Record<string, unknown>> | undefined;
  readonly exclude?: Readonly<Record<string, unknown>> | undefined;
  readonly limit?: number | undefined;
  readonly offset?: number | undefined;
}

/** The page a query answers. */
export interface QueryResult {
  readonly data: readonly JsonObject[];
  readonly total_count: number;
  readonly has_more: boolean;
}

type PageResult = { items: JsonObject[]; pageInfo: { totalCount: number } };

/** The manager's default selection when `fields` is absent. */
const allScalars: readonly FieldSelection[] = Object.freeze(['*']);

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}

/** Largest page the query tool asks for: `maxResults`, and never above the data layer's page cap. */
export function pageCap(app: ChatApp, settings: ToolSettings): number {
  const dataCap = app.settings?.maxPageSize;
  return typeof dataCap === 'number' ? Math.min(settings.maxResults, dataCap) : settings.maxResults;
}

function normalizeFilters(index: SchemaIndex, manager: IndexedManager, filters: Readonly<Record<string, unknown>> | undefined, argumentName: string, maxDepth: number) {
  if (filters === undefined) return undefined;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(filters)) {
    const normalized = normalizeFilterKey(index, manager, key, argumentName, maxDepth);
    if (Object.hasOwn(out, normalized)) {
      throw toolError('invalid_arguments', `Filter key '${key}' in ${argumentName} repeats '${normalized}'. Give each lookup once.`);
    }
    out[normalized] = value;
  }
  return out;
}

function filterTypeOf(app: ChatApp, root: string, managerName: string): string {
  const type = app.schema?.getQueryType()?.getFields()[root]?.args.find((arg) => arg.name === 'filter')?.type;
  return type === undefined ? `${managerName}Filter` : type.toString();
}

/**
 * Validates a query against the index (manager, fields, relations, filter keys, `maxRelationDepth`),
 * then reads one page through GraphQL as the actor, so row permissions apply. Without `fields` it
 * reads every scalar field. An offset that is not a multiple of the limit reads the two pages
 * around it in one document.
 */
export async function runQuery(
  app: ChatApp,
  index: SchemaIndex,
  settings: ToolSettings,
  managerName: string,
  args: QueryArguments,
  actor: Actor,
  signal: AbortSignal,
): Promise<QueryResult> {
  const manager = requireManager(index, managerName);
  const plan = planSelection(index, manager, args.fields ?? allScalars, settings.maxRelationDepth);
  const filter = normalizeFilters(index, manager, args.filters, 'filters', settings.maxRelationDepth);
  const exclude = normalizeFilters(index, manager, args.exclude, 'exclude', settings.maxRelationDepth);
  const cap = pageCap(app, settings);
  const limit = Math.min(args.limit ?? cap, cap);
  const offset = args.offset ?? 0;
  const root = lowerFirst(manager.entry.manager);
  const listRoot = `${root}List`;
  const filterType = filterTypeOf(app, listRoot, manager.entry.manager);
  const firstPage = Math.floor(offset / limit) + 1;
  const skip = offset % limit;
  const document = documentOfShape(`${listRoot}\0${filterType}\0${skip > 0}\0${JSON.stringify(plan)}`, () => {
    const pageSelection = [field('items', planSelections(plan)), field('pageInfo', [field('totalCount')])];
    const listArgs = (pageVariable: string) => [
      argument('filter', 'filter'),
      argument('exclude', 'exclude'),
      argument('page', pageVariable),
      argument('pageSize', 'pageSize'),
    ];
    const selections = [field(listRoot, pageSelection, listArgs('page'), 'first')];
    const variables = [
      variableDefinition('filter', filterType),
      variableDefinition('exclude', filterType),
      variableDefinition('page', 'Int'),
      variableDefinition('pageSize', 'Int'),
    ];
    if (skip > 0) {
      selections.push(field(listRoot, [field('items', planSelections(plan))], listArgs('nextPage'), 'second'));
      variables.push(variableDefinition('nextPage', 'Int'));
    }
    return operation('query', variables, selections);
  });
  const result = await app.graphql({
    actor,
    document,
    variables: {
      filter: filter ?? null,
      exclude: exclude ?? null,
      page: firstPage,
      pageSize: limit,
      ...(skip > 0 ? { nextPage: firstPage + 1 } : {}),
    },
    signal,
    ...(settings.queryTimeoutSeconds === null ? {} : { statementTimeoutMs: settings.queryTimeoutSeconds * 1000 }),
  });
  const seconds = settings.queryTimeoutSeconds;
  raiseGraphqlErrors(result, `The query on ${manager.entry.manager}`, seconds === null ? undefined : () =>
    toolError('query_timeout', `The query on ${manager.entry.manager} ran longer than ${seconds} s (queryTimeoutSeconds) and the database stopped it. Narrow the filters, lower the limit or ask for fewer related fields.`),
  );
  const data = result.data as { first: PageResult; second?: Pick<PageResult, 'items'> } | null | undefined;
  if (data === null || data === undefined) throw new Error(`The query on ${manager.entry.manager} answered no data.`);
  const rows = skip > 0 ? [...data.first.items, ...(data.second?.items ?? [])].slice(skip, skip + limit) : data.first.items;
  const total = data.first.pageInfo.totalCount;
  return { data: rows, total_count: total, has_more: offset + rows.length < total };
}

export function createQueryTool(app: ChatApp, index: SchemaIndex, settings: ToolSettings): Tool {
  return defineTool({
    name: 'query',
    description: `Read rows of one exposed manager: choose fields (omitted: every scalar field) and related fields, filter with lookup keys from get_manager_schema (relations at most ${settings.maxRelationDepth} deep), page with limit and offset. Answers { data, total_count, has_more }.`,
    input: z.object({ manager: z.string().min(1).describe('Manager name, as search_managers returns it.'), ...queryShape }),
    effect: 'read',
    handler: (args, ctx) => runQuery(app, index, settings, args.manager, args, ctx.actor, ctx.signal),
  });
}

/** `query_<manager in snake_case>`: the direct strategy's one tool per exposed manager. */
export function createDirectQueryTool(app: ChatApp, index: SchemaIndex, settings: ToolSettings, manager: IndexedManager, toolName: string): Tool {
  const entry = manager.entry;
  const relations = entry.relations.map((relation) => `${relation.name} → ${relation.target}`).join(', ');
  const description = [
    `Read ${entry.manager} rows${entry.description === '' ? '' : ` (${entry.description.replace(/\.$/, '')})`}.`,
    `Fields: ${entry.fields.map((item) => item.name).join(', ')}.`,
    relations === '' ? '' : `Relations: ${relations}.`,
    `Filters: ${entry.filters.join(', ')}; traverse a relation with <relation>__<key>, at most ${settings.maxRelationDepth} deep.`,
  ]
    .filter((part) => part !== '')
    .join(' ');
  return defineTool({
    name: toolName,
    description,
    input: z.object(queryShape),
    effect: 'read',
    handler: (args, ctx) => runQuery(app, index, settings, entry.manager, args, ctx.actor, ctx.signal),
  });
}
