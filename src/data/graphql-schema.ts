import {
  GraphQLBoolean,
  GraphQLEnumType,
  GraphQLFloat,
  GraphQLID,
  GraphQLInputObjectType,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLString,
} from 'graphql';
import type { GraphQLFieldConfig, GraphQLFieldConfigMap, GraphQLInputFieldConfigMap, GraphQLInputType, GraphQLScalarType } from 'graphql';
import { PlumbError } from '../core/index.js';
import type { FieldType } from './definition-types.js';
import { toStorage, ValueProblem } from './field-values.js';
import { DateScalar, DateTimeScalar, DecimalScalar, JsonScalar } from './graphql-scalars.js';
import { enumerateLookups } from './lookups.js';
import type { ResolvedLookup } from './lookups.js';
import { assignsKeys, keyShape } from './keys.js';
import type { RowKey } from './keys.js';
import type { Field, Manager, Relation } from './model.js';
import { createRow, deleteRow, updateRow } from './mutations.js';
import { lowerFirst } from './naming.js';
import type { ListArgs, Page, PageArgs, RequestScope } from './request-scope.js';
import type { Row } from './row-codec.js';

/** What resolvers receive as GraphQL context. */
export interface DataContext {
  readonly scope: RequestScope;
}

type Args = Record<string, unknown>;

const scalarFor: Record<FieldType | 'id' | 'key', GraphQLScalarType> = {
  id: GraphQLID,
  key: GraphQLID,
  string: GraphQLString,
  text: GraphQLString,
  enum: GraphQLString,
  integer: GraphQLInt,
  decimal: DecimalScalar,
  float: GraphQLFloat,
  boolean: GraphQLBoolean,
  date: DateScalar,
  datetime: DateTimeScalar,
  json: JsonScalar,
};

function fieldScalar(field: Field): GraphQLScalarType {
  return scalarFor[field.primaryKey ? 'id' : field.type];
}

function describeField(field: Field): string | undefined {
  const parts = [field.description, field.type === 'enum' ? `One of: ${field.values?.join(', ')}.` : undefined].filter(Boolean);
  return parts.length > 0 ? parts.join(' ') : undefined;
}

function lookupInputType(lookup: ResolvedLookup): GraphQLInputType {
  if (lookup.operator === 'isnull') return GraphQLBoolean;
  const scalar = scalarFor[lookup.shape.type];
  return lookup.operator === 'in' ? new GraphQLList(new GraphQLNonNull(scalar)) : scalar;
}

function parseId(manager: Manager, value: unknown): RowKey {
  try {
    return toStorage(keyShape(manager), value) as RowKey;
  } catch (error) {
    if (error instanceof ValueProblem) throw new PlumbError('invalid_input', `${manager.name} id: ${error.reason}.`, { details: { manager: manager.name, field: 'id' } });
    throw error;
  }
}

export interface SchemaOptions {
  /** Lookup keys per manager (computed once by the app). */
  readonly lookups: (manager: Manager) => readonly ResolvedLookup[];
}

/** Builds the GraphQL schema of a set of resolved managers. Pure: same managers, same schema. */
export function buildSchema(managers: readonly Manager[], options: SchemaOptions = { lookups: (manager) => enumerateLookups(manager) }): GraphQLSchema {
  const objects = new Map<Manager, GraphQLObjectType>();
  const filters = new Map<Manager, GraphQLInputObjectType>();

  const pageInfo = new GraphQLObjectType({
    name: 'PageInfo',
    description: 'Where a page sits in the whole filtered list.',
    fields: {
      totalCount: { type: new GraphQLNonNull(GraphQLInt), description: 'Rows matching the filter (all pages).' },
      page: { type: new GraphQLNonNull(GraphQLInt) },
      pageSize: { type: new GraphQLNonNull(GraphQLInt) },
      hasNextPage: { type: new GraphQLNonNull(GraphQLBoolean) },
    },
  });

  for (const manager of managers) {
    filters.set(manager, new GraphQLInputObjectType({
      name: `${manager.name}Filter`,
      description: `Lookups on ${manager.name}: field[__relation…][__operator]. Keys combine with AND.`,
      fields: () => {
        const fields: GraphQLInputFieldConfigMap = {};
        for (const lookup of options.lookups(manager)) fields[lookup.key] = { type: lookupInputType(lookup) };
        return fields;
      },
    }));
  }

  // A manager's named conditions: an enum of their names, and a `conditions` argument on its lists.
  const conditionEnums = new Map<Manager, GraphQLEnumType>();
  for (const manager of managers) {
    const named = manager.conditions;
    if (named.length === 0) continue;
    conditionEnums.set(manager, new GraphQLEnumType({
      name: `${manager.name}Condition`,
      description: `The named conditions of ${manager.name}: each is a filter the host defined.`,
      values: Object.fromEntries(named.map((c) => [c.name, { value: c.name, description: c.description ?? `Filter ${JSON.stringify(c.filter)}.` }])),
    }));
  }

  const listArgs = (target: Manager) => {
    const named = conditionEnums.get(target);
    return {
      filter: { type: filters.get(target)!, description: 'Keep rows matching every key.' },
      exclude: { type: filters.get(target)!, description: 'Drop rows matching every key.' },
      ...(named === undefined ? {} : { conditions: { type: new GraphQLList(new GraphQLNonNull(named)), description: 'Keep rows meeting every named condition as well ($now and $today: the request time, UTC).' } }),
    };
  };

  const relationField = (relation: Relation): GraphQLFieldConfig<Row, DataContext, Args> => {
    const target = objects.get(relation.target)!;
    if (relation.kind === 'one') {
      return {
        type: target,
        description: relation.description,
        resolve: (row, _args, context) => {
          const id = row[relation.name];
          return typeof id === 'number' || typeof id === 'string' ? context.scope.byId(relation.target, id) : null;
        },
      };
    }
    return {
      type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(target))),
      description: relation.description,
      args: listArgs(relation.target),
      resolve: (row, args: ListArgs, context) => context.scope.related(relation, row.id as RowKey, args),
    };
  };

  for (const manager of managers) {
    objects.set(manager, new GraphQLObjectType<Row, DataContext>({
      name: manager.name,
      description: manager.description,
      fields: () => {
        const fields: GraphQLFieldConfigMap<Row, DataContext> = {};
        for (const field of manager.fields) {
          const scalar = fieldScalar(field);
          fields[field.name] = { type: field.nullable ? scalar : new GraphQLNonNull(scalar), description: describeField(field) };
        }
        for (const relation of manager.relations) fields[relation.name] = relationField(relation) as GraphQLFieldConfig<Row, DataContext>;
        return fields;
      },
    }));
  }

  const inputFields = (manager: Manager, mode: 'create' | 'update'): GraphQLInputFieldConfigMap => {
    const fields: GraphQLInputFieldConfigMap = {};
    for (const field of manager.fields) {
      if (field.primaryKey) {
        // A string key is given by the writer (or filled by the database's own default).
        if (mode === 'create' && !assignsKeys(manager)) fields[field.name] = { type: GraphQLID, description: `The key of the new ${manager.name} (the database fills it when it has a default).` };
        continue;
      }
      const scalar = fieldScalar(field);
      const required = mode === 'create' && !field.nullable && !field.hasDefault;
      fields[field.name] = { type: required ? new GraphQLNonNull(scalar) : scalar, description: describeField(field) };
    }
    for (const relation of manager.relations) {
      if (relation.kind === 'one') {
        const required = mode === 'create' && !relation.nullable;
        fields[relation.name] = { type: required ? new GraphQLNonNull(GraphQLID) : GraphQLID, description: `Id of the ${relation.target.name}.` };
      } else if (relation.kind === 'manyToMany') {
        fields[relation.name] = { type: new GraphQLList(new GraphQLNonNull(GraphQLID)), description: `Ids of the ${relation.target.name} rows (replaces the current links).` };
      }
    }
    return fields;
  };

  const query: GraphQLFieldConfigMap<unknown, DataContext> = {};
  const mutation: GraphQLFieldConfigMap<unknown, DataContext> = {};
  for (const manager of managers) {
    const object = objects.get(manager)!;
    const root = lowerFirst(manager.name);
    const page = new GraphQLObjectType<Page, DataContext>({
      name: `${manager.name}Page`,
      fields: {
        items: { type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(object))) },
        pageInfo: {
          type: new GraphQLNonNull(pageInfo),
          resolve: (result) => ({ page: result.page, pageSize: result.pageSize, hasNextPage: result.hasNextPage, totalCount: () => result.totalCount() }),
        },
      },
    });
    query[`${root}List`] = {
      type: new GraphQLNonNull(page),
      description: `A page of ${manager.name} rows the actor may see, in id order.`,
      args: {
        ...listArgs(manager),
        page: { type: GraphQLInt, defaultValue: 1, description: 'Page number, from 1.' },
        pageSize: { type: GraphQLInt, description: 'Rows per page; defaults to and is capped by maxPageSize.' },
      },
      resolve: (_source, args: PageArgs, context) => context.scope.list(manager, args),
    };
    query[root] = {
      type: object,
      description: `One ${manager.name} by id; null when it does not exist or the actor may not see it.`,
      args: { id: { type: new GraphQLNonNull(GraphQLID) } },
      resolve: (_source, args: Args, context) => context.scope.byId(manager, parseId(manager, args.id)),
    };
    const createInput = new GraphQLInputObjectType({ name: `${manager.name}CreateInput`, fields: () => inputFields(manager, 'create') });
    const updateInput = new GraphQLInputObjectType({ name: `${manager.name}UpdateInput`, fields: () => inputFields(manager, 'update') });
    mutation[`create${manager.name}`] = {
      type: new GraphQLNonNull(object),
      args: { input: { type: new GraphQLNonNull(createInput) } },
      resolve: (_source, args: Args, context) => createRow(context.scope, manager, args.input as Row),
    };
    mutation[`update${manager.name}`] = {
      type: new GraphQLNonNull(object),
      args: { id: { type: new GraphQLNonNull(GraphQLID) }, input: { type: new GraphQLNonNull(updateInput) } },
      resolve: (_source, args: Args, context) => updateRow(context.scope, manager, parseId(manager, args.id), args.input as Row),
    };
    mutation[`delete${manager.name}`] = {
      type: new GraphQLNonNull(object),
      args: { id: { type: new GraphQLNonNull(GraphQLID) } },
      resolve: (_source, args: Args, context) => deleteRow(context.scope, manager, parseId(manager, args.id)),
    };
  }
  return new GraphQLSchema({
    query: new GraphQLObjectType({ name: 'Query', fields: query }),
    mutation: new GraphQLObjectType({ name: 'Mutation', fields: mutation }),
  });
}

