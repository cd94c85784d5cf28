import { Kind, OperationTypeNode, parseType } from 'graphql';
import type { ArgumentNode, DocumentNode, FieldNode, SelectionSetNode, VariableDefinitionNode } from 'graphql';
import { setBounded } from '../core/index.js';
import type { SelectionPlan } from './query-plan.js';

/** Small builders for GraphQL documents as ASTs: names come from the index, values go in variables. */
export function name(value: string) {
  return { kind: Kind.NAME, value } as const;
}

export function variableDefinition(variable: string, type: string): VariableDefinitionNode {
  return { kind: Kind.VARIABLE_DEFINITION, variable: { kind: Kind.VARIABLE, name: name(variable) }, type: parseType(type) };
}

export function argument(argumentName: string, variable: string): ArgumentNode {
  return { kind: Kind.ARGUMENT, name: name(argumentName), value: { kind: Kind.VARIABLE, name: name(variable) } };
}

export function field(fieldName: string, selections?: readonly FieldNode[], args: readonly ArgumentNode[] = [], alias?: string): FieldNode {
  return {
    kind: Kind.FIELD,
    ...(alias === undefined ? {} : { alias: name(alias) }),
    name: name(fieldName),
    arguments: args,
    ...(selections === undefined ? {} : { selectionSet: selectionSet(selections) }),
  };
}

export function selectionSet(selections: readonly FieldNode[]): SelectionSetNode {
  return { kind: Kind.SELECTION_SET, selections };
}

export function operation(kind: 'query' | 'mutation', variables: readonly VariableDefinitionNode[], selections: readonly FieldNode[]): DocumentNode {
  return {
    kind: Kind.DOCUMENT,
    definitions: [
      {
        kind: Kind.OPERATION_DEFINITION,
        operation: kind === 'query' ? OperationTypeNode.QUERY : OperationTypeNode.MUTATION,
        name: name(kind === 'query' ? 'ChatQuery' : 'ChatMutation'),
        variableDefinitions: variables,
        selectionSet: selectionSet(selections),
      },
    ],
  };
}

/** Most documents kept by `documentOfShape`. */
const shapeCacheSize = 500;
const documentsByShape = new Map<string, DocumentNode>();

/**
 * The document built for a shape key, built once: the app validates a document object once, so
 * handing it the same object for the same shape skips validation on every later call.
 */
export function documentOfShape(shape: string, build: () => DocumentNode): DocumentNode {
  const known = documentsByShape.get(shape);
  if (known !== undefined) return known;
  const document = build();
  setBounded(documentsByShape, shape, document, shapeCacheSize);
  return document;
}

/** The fields of a validated selection plan. */
export function planSelections(plan: SelectionPlan): FieldNode[] {
  return [...plan.fields.map((fieldName) => field(fieldName)), ...plan.relations.map((relation) => field(relation.name, planSelections(relation.plan)))];
}
