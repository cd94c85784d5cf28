import { operatorsByType } from '../data/index.js';
import type { ChatField, ChatRelation } from './chat-app.js';

function keysFor(name: string, operators: readonly string[], nullable: boolean): string[] {
  const all = nullable ? [...operators, 'isnull'] : operators;
  return all.map((operator) => (operator === 'exact' ? name : `${name}__${operator}`));
}

const typeOperators: Readonly<Record<string, readonly string[]>> = operatorsByType;

/**
 * The lookup keys on a manager itself, without traversing a relation, as the data layer accepts
 * them: every filterable field with its operators, and each `one` relation's foreign key
 * (`material`, `material__in`).
 */
export function ownFilterKeys(fields: readonly ChatField[], relations: readonly ChatRelation[], cardinalityOf: (relation: ChatRelation) => string): string[] {
  const keys: string[] = [];
  for (const field of fields) {
    if (field.filterable === false) continue;
    const operators = typeOperators[field.primaryKey === true ? 'id' : field.type] ?? ['exact'];
    keys.push(...keysFor(field.name, operators, field.nullable === true));
  }
  for (const relation of relations) {
    if (cardinalityOf(relation) === 'one') keys.push(...keysFor(relation.name, ['exact', 'in'], relation.nullable === true));
  }
  return keys;
}
