/**
 * Answers about the schema, from the discovery tools' results: the kinds of data there are
 * (`search_managers`), one manager's fields and relations (`get_manager_schema`), the relations that
 * lead from one manager to another (`find_path`). Names are said in the answer's language where the
 * host has words for them.
 */
import type { JsonObject, JsonValue } from '../core/index.js';
import type { Context } from './context.js';
import { fieldWords, isList, isRecord } from './labels.js';
import { capitalize, plural } from './nouns.js';
import type { Written } from './written.js';
import { fillIn, listOf, value, written } from './written.js';

/** The answer to a discovery tool's result, or null when the result is not one. */
export function schemaAnswer(ctx: Context, step: number, tool: string, args: JsonObject, result: JsonValue): Written | null {
  if (tool === 'search_managers' && isList(result)) return managersAnswer(ctx, step, tool, result);
  if (tool === 'get_manager_schema' && (result === null || isEntry(result))) return schemaOf(ctx, step, tool, args, result);
  if (tool === 'find_path' && (result === null || isList(result))) return pathAnswer(ctx, step, tool, args, result);
  return null;
}

function isEntry(value: JsonValue): value is Readonly<Record<string, JsonValue>> {
  return isRecord(value) && typeof value['manager'] === 'string' && isList(value['fields']);
}

function managerNoun(ctx: Context, manager: string, count: number): string {
  const named = ctx.labels.manager?.(manager, ctx.language, count) ?? null;
  if (named !== null) return named;
  const words = fieldWords(manager.replace(/([a-z0-9])([A-Z])/g, '$1 $2')).toLowerCase();
  return count === 1 ? words : plural(words);
}

function managersAnswer(ctx: Context, step: number, tool: string, entries: readonly JsonValue[]): Written {
  const names = entries.flatMap((entry, row) =>
    isEntry(entry) ? [value(managerNoun(ctx, entry['manager'] as string, 2), { step, tool, row, id: entry['manager'] as string, field: 'manager' })] : [],
  );
  return fillIn(ctx.words.schemaManagers, { count: String(names.length), list: listOf(names, ctx.words.and) });
}

function schemaOf(ctx: Context, step: number, tool: string, args: JsonObject, entry: Readonly<Record<string, JsonValue>> | null): Written {
  const asked = typeof args['manager'] === 'string' ? args['manager'] : '';
  if (entry === null) return written(fillIn(ctx.words.schemaNone, { noun: managerNoun(ctx, asked, 1) }));
  const manager = entry['manager'] as string;
  const queryTool = `query_${manager.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase()}`;
  const fields = (entry['fields'] as JsonValue[]).flatMap((f, i) => {
    if (!isRecord(f) || typeof f['name'] !== 'string' || f['name'] === 'id') return [];
    const label = ctx.labels.field?.(queryTool, f['name'], ctx.language) ?? fieldWords(f['name']);
    return [value(label, { step, tool, row: null, id: manager, field: `fields.${i}.name` })];
  });
  const relations = (isList(entry['relations']) ? entry['relations'] : []).flatMap((r, i) => {
    if (!isRecord(r) || typeof r['name'] !== 'string') return [];
    const label = ctx.labels.field?.(queryTool, r['name'], ctx.language) ?? fieldWords(r['name']);
    return [value(label, { step, tool, row: null, id: manager, field: `relations.${i}.name` })];
  });
  const head = fillIn(ctx.words.schemaFields, { noun: managerNoun(ctx, manager, 1), fields: listOf(fields, ctx.words.and) });
  return relations.length === 0 ? head : written(head, ' ', fillIn(ctx.words.schemaRelations, { relations: listOf(relations, ctx.words.and) }));
}

function pathAnswer(ctx: Context, step: number, tool: string, args: JsonObject, path: readonly JsonValue[] | null): Written {
  const fromManager = typeof args['from_manager'] === 'string' ? args['from_manager'] : '';
  const toManager = typeof args['to_manager'] === 'string' ? args['to_manager'] : '';
  const from = capitalize(managerNoun(ctx, fromManager, 2));
  const to = managerNoun(ctx, toManager, 2);
  if (path === null) return written(fillIn(ctx.words.schemaNoPath, { from, to }));
  if (path.length === 0) return written(fillIn(ctx.words.schemaSame, { from, to }));
  const fromTool = `query_${fromManager.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase()}`;
  const hops = path.map((name, i) => {
    const relation = typeof name === 'string' ? name : '';
    return value(ctx.labels.field?.(fromTool, relation, ctx.language) ?? fieldWords(relation), { step, tool, row: i, id: null, field: 'relation' });
  });
  return fillIn(ctx.words.schemaPath, { from, to, path: written(...hops.flatMap((h, i) => (i === 0 ? [h] : [' → ', h]))) });
}
