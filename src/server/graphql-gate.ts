import { GraphQLError, Kind, NoSchemaIntrospectionCustomRule, getOperationAST, parse, specifiedRules, validate } from 'graphql';
import type { DocumentNode, GraphQLSchema, SelectionSetNode } from 'graphql';
import { setBounded } from '../core/index.js';

/** Most documents kept checked per schema. */
const cachedDocuments = 500;

/** What to do with a GraphQL request once checked against the schema its actor may see. */
export type GateDecision =
  /** Run it through the app (its data fields); the app's own checks pass whatever passed here. */
  | { readonly kind: 'data' }
  /** Only `__schema`, `__type` and `__typename` at the root: answered from the actor's schema. */
  | { readonly kind: 'introspection'; readonly document: DocumentNode }
  | { readonly kind: 'errors'; readonly errors: readonly GraphQLError[] };

const metaFields = new Set(['__schema', '__type']);

type Checked = { readonly document: DocumentNode } | { readonly errors: readonly GraphQLError[] } | undefined;

/**
 * Checks documents against an actor's schema (`createActorSchemas`), with introspection refused
 * when the `graphqlIntrospection` setting is off. The app executes against its whole schema, whose
 * introspection would list every manager, so an operation that asks for `__schema` or `__type` is
 * answered here instead, from the actor's schema — and one that mixes them with data fields is
 * refused rather than answered from the wrong schema.
 */
export function createGraphqlGate(options: { readonly introspection: boolean }): (schema: GraphQLSchema, source: string, operationName: string | undefined) => GateDecision {
  const rules = options.introspection ? specifiedRules : [...specifiedRules, NoSchemaIntrospectionCustomRule];
  // Per schema: each source's document, or its validation errors, or undefined for a syntax error.
  const checked = new WeakMap<GraphQLSchema, Map<string, Checked>>();

  const check = (schema: GraphQLSchema, source: string): Checked => {
    let documents = checked.get(schema);
    if (documents === undefined) checked.set(schema, (documents = new Map<string, Checked>()));
    if (documents.has(source)) return documents.get(source);
    let outcome: Checked;
    try {
      const document = parse(source, { maxTokens: 10_000 });
      const errors = validate(schema, document, rules);
      outcome = errors.length === 0 ? { document } : { errors: errors.map(validationError) };
    } catch (error) {
      // A syntax error: the app answers it in its own words (GRAPHQL_PARSE_FAILED).
      if (!(error instanceof GraphQLError)) throw error;
      outcome = undefined;
    }
    setBounded(documents, source, outcome, cachedDocuments);
    return outcome;
  };

  return (schema, source, operationName) => {
    const outcome = check(schema, source);
    if (outcome === undefined) return { kind: 'data' };
    if ('errors' in outcome) return { kind: 'errors', errors: outcome.errors };
    const operation = getOperationAST(outcome.document, operationName);
    if (operation === null || operation === undefined) return { kind: 'data' };
    const fields = rootFields(outcome.document, operation.selectionSet);
    const meta = fields.filter((name) => metaFields.has(name));
    if (meta.length === 0) return { kind: 'data' };
    if (fields.every((name) => metaFields.has(name) || name === '__typename')) return { kind: 'introspection', document: outcome.document };
    return {
      kind: 'errors',
      errors: [
        new GraphQLError(`Ask for ${meta.join(' and ')} in an operation of its own, without data fields: introspection is answered from the schema you may read.`, {
          nodes: operation,
          extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
        }),
      ],
    };
  };
}

/** The names of an operation's root fields, through fragment spreads and inline fragments. */
function rootFields(document: DocumentNode, selectionSet: SelectionSetNode): string[] {
  const fragments = new Map(document.definitions.flatMap((definition) => (definition.kind === Kind.FRAGMENT_DEFINITION ? [[definition.name.value, definition] as const] : [])));
  const names: string[] = [];
  const seen = new Set<string>();
  const walk = (set: SelectionSetNode): void => {
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) names.push(selection.name.value);
      else if (selection.kind === Kind.INLINE_FRAGMENT) walk(selection.selectionSet);
      else if (!seen.has(selection.name.value)) {
        seen.add(selection.name.value);
        const fragment = fragments.get(selection.name.value);
        if (fragment !== undefined) walk(fragment.selectionSet);
      }
    }
  };
  walk(selectionSet);
  return names;
}

function validationError(error: GraphQLError): GraphQLError {
  return new GraphQLError(error.message, { nodes: error.nodes, source: error.source, positions: error.positions, path: error.path, extensions: { ...error.extensions, code: 'GRAPHQL_VALIDATION_FAILED' } });
}
