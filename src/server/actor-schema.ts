import {
  GraphQLEnumType,
  GraphQLInputObjectType,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLScalarType,
  GraphQLSchema,
  getNamedType,
  isNonNullType,
} from 'graphql';
import type { GraphQLFieldConfigMap, GraphQLInputFieldConfigMap, GraphQLNamedType, GraphQLType } from 'graphql';
import { setBounded } from '../core/index.js';
import type { Actor } from '../core/index.js';
import type { App, Manager } from '../data/index.js';

/** Most distinct sets of readable managers whose schema is kept (one per role mix, in practice a handful). */
const cachedSchemas = 32;

/**
 * The app's GraphQL schema as one actor may see it: the types, fields, filter keys and inputs of
 * the managers its read permission does not refuse outright (`read(actor) !== false`), and no
 * trace of the others — no type, no relation field, no filter key or input field through them.
 * Hidden is the same as unknown, in introspection and in validation messages alike. One schema per
 * set of readable managers, built once from `app.schema` (its resolvers kept) and cached, bounded.
 */
export interface ActorSchemas {
  forActor(actor: Actor): GraphQLSchema;
}

export function createActorSchemas(app: App): ActorSchemas {
  const schemas = new Map<string, GraphQLSchema>();
  return {
    forActor(actor) {
      const readable = app.managers.filter((manager) => manager.permissions.read(actor) !== false);
      if (readable.length === app.managers.length) return app.schema;
      const key = readable.map((manager) => manager.name).join('\u0000');
      let schema = schemas.get(key);
      if (schema === undefined) {
        schema = filterSchema(app, new Set(readable.map((manager) => manager.name)));
        setBounded(schemas, key, schema, cachedSchemas);
      }
      return schema;
    },
  };
}

/** What is cut from a readable manager's own types: the relations and lookup keys that reach a hidden one. */
interface Cuts {
  readonly relations: ReadonlySet<string>;
  readonly filterKeys: ReadonlySet<string>;
}

/** The schema over the `readable` managers only (names of `app.managers`). */
export function filterSchema(app: App, readable: ReadonlySet<string>): GraphQLSchema {
  const hidden = app.managers.filter((manager) => !readable.has(manager.name));
  // The generated types of a hidden manager, by name.
  const dropped = new Set(hidden.flatMap((manager) => [manager.name, `${manager.name}Page`, `${manager.name}Filter`, `${manager.name}CreateInput`, `${manager.name}UpdateInput`]));
  const cuts = new Map<string, Cuts>();
  const hides = (manager: Manager): boolean => !readable.has(manager.name);
  for (const manager of app.managers) {
    if (hides(manager)) continue;
    const relations = new Set(manager.relations.filter((relation) => hides(relation.target)).map((relation) => relation.name));
    const filterKeys = new Set(
      app
        .lookups(manager)
        .filter((lookup) => lookup.path.some((relation) => hides(relation.target)) || (lookup.target.kind === 'foreignKey' && hides(lookup.target.relation.target)))
        .map((lookup) => lookup.key),
    );
    for (const suffix of ['', 'Filter', 'CreateInput', 'UpdateInput']) cuts.set(`${manager.name}${suffix}`, suffix === 'Filter' ? { relations: new Set(), filterKeys } : { relations, filterKeys: new Set() });
  }

  // An input type that loses a required field can no longer be given: it goes, and so does
  // every field that takes it as a required argument (a create whose relation is hidden).
  for (const type of Object.values(app.schema.getTypeMap())) {
    if (!(type instanceof GraphQLInputObjectType) || dropped.has(type.name)) continue;
    const cut = cuts.get(type.name);
    if (cut !== undefined && Object.values(type.getFields()).some((field) => cut.relations.has(field.name) && isNonNullType(field.type))) dropped.add(type.name);
  }

  const rebuilt = new Map<string, GraphQLNamedType>();
  const kept = (type: GraphQLType): boolean => !dropped.has(getNamedType(type).name);
  const remap = <T extends GraphQLType>(type: T): T => {
    if (type instanceof GraphQLNonNull) return new GraphQLNonNull(remap(type.ofType as GraphQLType)) as unknown as T;
    if (type instanceof GraphQLList) return new GraphQLList(remap(type.ofType)) as unknown as T;
    return (rebuilt.get((type as GraphQLNamedType).name) ?? type) as T;
  };

  for (const type of Object.values(app.schema.getTypeMap())) {
    if (type.name.startsWith('__') || dropped.has(type.name)) continue;
    const cut = cuts.get(type.name);
    if (type instanceof GraphQLObjectType) {
      const config = type.toConfig();
      rebuilt.set(
        type.name,
        new GraphQLObjectType({
          ...config,
          interfaces: [],
          fields: () => {
            const fields: GraphQLFieldConfigMap<unknown, unknown> = {};
            for (const [name, field] of Object.entries(config.fields)) {
              if (cut?.relations.has(name) === true || !kept(field.type)) continue;
              const args = Object.entries(field.args ?? {});
              if (args.some(([, arg]) => !kept(arg.type) && isNonNullType(arg.type))) continue;
              fields[name] = {
                ...field,
                type: remap(field.type),
                args: Object.fromEntries(args.filter(([, arg]) => kept(arg.type)).map(([argName, arg]) => [argName, { ...arg, type: remap(arg.type) }])),
              };
            }
            return fields;
          },
        }),
      );
    } else if (type instanceof GraphQLInputObjectType) {
      const config = type.toConfig();
      rebuilt.set(
        type.name,
        new GraphQLInputObjectType({
          ...config,
          fields: () => {
            const fields: GraphQLInputFieldConfigMap = {};
            for (const [name, field] of Object.entries(config.fields)) {
              if (cut?.relations.has(name) === true || cut?.filterKeys.has(name) === true || !kept(field.type)) continue;
              fields[name] = { ...field, type: remap(field.type) };
            }
            return fields;
          },
        }),
      );
    } else if (type instanceof GraphQLScalarType || type instanceof GraphQLEnumType) {
      // Leaf types refer to nothing: shared as they are.
      rebuilt.set(type.name, type);
    } else {
      // The data layer generates objects, inputs and scalars only; a union or interface would need its members remapped.
      throw new Error(`filterSchema: unexpected ${type.constructor.name} '${type.name}' in the app's schema`);
    }
  }

  const query = rebuilt.get('Query') as GraphQLObjectType;
  const mutation = rebuilt.get('Mutation') as GraphQLObjectType | undefined;
  const hasMutations = mutation !== undefined && Object.keys(mutation.getFields()).length > 0;
  return new GraphQLSchema({
    query,
    ...(hasMutations ? { mutation } : {}),
    types: [...rebuilt.values()].filter((type) => type !== mutation || hasMutations),
    // A subset of a valid schema, but its Query may be left with no field (an actor who reads
    // nothing), which the type-system rules refuse; validation and introspection still work on it.
    assumeValid: true,
  });
}
