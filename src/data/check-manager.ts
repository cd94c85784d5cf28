import { fieldTypes } from './definition-types.js';
import type { FieldSpec, FieldType, ManagerSpec, RelationSpec } from './definition-types.js';
import { catalogProblems } from './manager-catalog.js';
import { toStorage, ValueProblem } from './field-values.js';
import { managerNamePattern, memberNamePattern, sqlNamePattern } from './naming.js';

/** Lookup operators; they may not be used as field or relation names (`x__in` must stay unambiguous). */
export const lookupOperators = ['exact', 'iexact', 'contains', 'icontains', 'startswith', 'in', 'gt', 'gte', 'lt', 'lte', 'isnull'] as const;
export type LookupOperator = (typeof lookupOperators)[number];

/** Names a manager may not use for a field or relation. */
export const reservedMemberNames: readonly string[] = [...lookupOperators, 'pk'];

/** Names a manager may not take (they are generated GraphQL types). */
export const reservedManagerNames: readonly string[] = [
  'Query', 'Mutation', 'Subscription', 'PageInfo', 'Decimal', 'Date', 'DateTime', 'JSON',
  'String', 'Int', 'Float', 'Boolean', 'ID',
];

export function normalizeField(spec: FieldSpec | FieldType): FieldSpec {
  return typeof spec === 'string' ? { type: spec } : spec;
}

function checkField(owner: string, name: string, raw: unknown, problems: string[]): void {
  const where = `${owner}.${name}`;
  if (!memberNamePattern.test(name)) problems.push(`${where}: field names are camelCase letters and digits (no '_'), got '${name}'.`);
  if (reservedMemberNames.includes(name)) problems.push(`${where}: '${name}' is reserved (it is a lookup operator).`);
  if (typeof raw !== 'string' && (typeof raw !== 'object' || raw === null)) {
    problems.push(`${where}: a field is a type name or { type, … }.`);
    return;
  }
  const spec = normalizeField(raw as FieldSpec);
  if (!(fieldTypes as readonly string[]).includes(spec.type)) {
    problems.push(`${where}: unknown field type '${String(spec.type)}'. Types: ${fieldTypes.join(', ')}.`);
    return;
  }
  if (name === 'id' && spec.type !== 'integer' && spec.type !== 'string') problems.push(`${where}: a declared 'id' is the primary key: its type is integer (an id the database assigns) or string (a key the writer gives, such as a code or a UUID).`);
  if (spec.column !== undefined && !sqlNamePattern.test(spec.column)) problems.push(`${where}: column '${spec.column}' is not a plain SQL name.`);
  if (spec.type === 'enum') {
    if (!Array.isArray(spec.values) || spec.values.length === 0) problems.push(`${where}: an enum needs a non-empty 'values' list.`);
    else if (spec.values.some((value) => typeof value !== 'string' || value.length === 0)) problems.push(`${where}: enum values are non-empty strings.`);
    else if (new Set(spec.values).size !== spec.values.length) problems.push(`${where}: enum values repeat.`);
  } else if (spec.values !== undefined) {
    problems.push(`${where}: 'values' only applies to enum fields.`);
  }
  if (spec.scale !== undefined && (spec.type !== 'decimal' || !Number.isInteger(spec.scale) || spec.scale < 0 || spec.scale > 9)) {
    problems.push(`${where}: 'scale' applies to decimal fields and is an integer from 0 to 9.`);
  }
  if (spec.default !== undefined) {
    if (spec.default === null) {
      if (spec.nullable !== true) problems.push(`${where}: default null needs nullable: true.`);
    } else if (spec.type !== 'enum' || Array.isArray(spec.values)) {
      try {
        toStorage({ type: spec.type, scale: spec.scale ?? 2, values: spec.values }, spec.default);
      } catch (error) {
        if (!(error instanceof ValueProblem)) throw error;
        problems.push(`${where}: bad default: ${error.reason}.`);
      }
    }
  }
}

function checkRelation(owner: string, name: string, raw: unknown, problems: string[]): void {
  const where = `${owner}.${name}`;
  if (!memberNamePattern.test(name)) problems.push(`${where}: relation names are camelCase letters and digits (no '_'), got '${name}'.`);
  if (reservedMemberNames.includes(name) || name === 'id') problems.push(`${where}: '${name}' is reserved.`);
  if (typeof raw !== 'object' || raw === null) {
    problems.push(`${where}: a relation is { kind, target, … }.`);
    return;
  }
  const spec = raw as RelationSpec;
  if (spec.kind !== 'one' && spec.kind !== 'many' && spec.kind !== 'manyToMany') {
    problems.push(`${where}: relation kind is one, many or manyToMany, got '${String((spec as { kind: unknown }).kind)}'.`);
    return;
  }
  if (typeof spec.target !== 'string' || !managerNamePattern.test(spec.target)) problems.push(`${where}: 'target' names a manager (PascalCase).`);
  if (spec.kind === 'one' || spec.kind === 'manyToMany') {
    if (spec.reverse !== undefined && (!memberNamePattern.test(spec.reverse) || reservedMemberNames.includes(spec.reverse))) {
      problems.push(`${where}: reverse name '${spec.reverse}' must be a camelCase name that is not reserved.`);
    }
  }
  if (spec.kind === 'one' && spec.column !== undefined && !sqlNamePattern.test(spec.column)) problems.push(`${where}: column '${spec.column}' is not a plain SQL name.`);
  if (spec.kind === 'manyToMany' && spec.through !== undefined && !sqlNamePattern.test(spec.through)) problems.push(`${where}: through table '${spec.through}' is not a plain SQL name.`);
  if (spec.kind === 'manyToMany') {
    for (const key of ['sourceColumn', 'targetColumn'] as const) {
      const column = spec[key];
      if (column !== undefined && (typeof column !== 'string' || !sqlNamePattern.test(column))) problems.push(`${where}: ${key} '${String(column)}' is not a plain SQL name.`);
    }
  }
  if (spec.kind === 'many' && (typeof spec.via !== 'string' || spec.via.length === 0)) problems.push(`${where}: a many relation names, in 'via', the one relation on ${String(spec.target)} that it reverses.`);
}

export function checkManagerSpec(spec: ManagerSpec): string[] {
  const problems: string[] = [];
  if (typeof spec !== 'object' || spec === null) return ['A manager declaration is an object { name, fields, … }.'];
  const name = typeof spec.name === 'string' ? spec.name : '(unnamed)';
  if (typeof spec.name !== 'string' || !managerNamePattern.test(spec.name)) problems.push(`Manager '${name}': names are PascalCase letters and digits, such as 'OrderLine'.`);
  else if (reservedManagerNames.includes(spec.name)) problems.push(`Manager '${name}': the name is reserved (a GraphQL type of its own).`);
  if (spec.table !== undefined && (typeof spec.table !== 'string' || !sqlNamePattern.test(spec.table))) problems.push(`${name}: table '${String(spec.table)}' is not a plain SQL name.`);
  if (typeof spec.fields !== 'object' || spec.fields === null) {
    problems.push(`${name}: 'fields' is an object of field declarations.`);
  } else {
    for (const [fieldName, field] of Object.entries(spec.fields)) checkField(name, fieldName, field, problems);
    const columns = new Map<string, string>();
    for (const [fieldName, field] of Object.entries(spec.fields)) {
      const column = typeof field === 'object' && field !== null && field.column !== undefined ? field.column : undefined;
      if (column === undefined) continue;
      const other = columns.get(column);
      if (other !== undefined) problems.push(`${name}: fields '${other}' and '${fieldName}' share column '${column}'.`);
      columns.set(column, fieldName);
    }
  }
  const relations = spec.relations ?? {};
  for (const [relationName, relation] of Object.entries(relations)) {
    checkRelation(name, relationName, relation, problems);
    if (Object.hasOwn(spec.fields ?? {}, relationName)) problems.push(`${name}.${relationName}: duplicate name: a field and a relation are both called '${relationName}'.`);
  }
  if (spec.chatExposed !== undefined && typeof spec.chatExposed !== 'boolean') problems.push(`${name}: chatExposed is true or false.`);
  if (spec.catalog !== undefined) problems.push(...catalogProblems(name, spec.catalog));
  // Their keys are checked when the app is defined (relations resolved): `invalid_condition`.
  if (spec.conditions !== undefined && (typeof spec.conditions !== 'object' || spec.conditions === null || Array.isArray(spec.conditions) || Object.values(spec.conditions).some((c) => typeof c !== 'object' || c === null || Array.isArray(c)))) {
    problems.push(`${name}: conditions is an object of named filters, such as { overdue: { dueOn__lt: '$today', paidOn__isnull: true } }.`);
  }
  if (spec.permissions !== undefined) {
    for (const [key, value] of Object.entries(spec.permissions)) {
      if (!['read', 'create', 'update', 'delete'].includes(key)) problems.push(`${name}: unknown permission '${key}'. Permissions: read, create, update, delete.`);
      else if (typeof value !== 'function') problems.push(`${name}: permission '${key}' must be a function.`);
    }
  }
  return problems;
}
