import { isAuthenticated } from '../core/index.js';
import { namedConditions } from './named-conditions.js';
import { checkManagerSpec, normalizeField } from './check-manager.js';
import { sharedAliasProblems } from './manager-catalog.js';
import type { ManagerSpec, RelationSpec } from './definition-types.js';
import { fromStorage, toStorage } from './field-values.js';
import type { Field, Manager, ManyRelation, ManyToManyRelation, OneRelation, Relation, ResolvedPermissions } from './model.js';
import { lowerFirst, plural, snakeCase } from './naming.js';

interface Draft {
  readonly spec: ManagerSpec;
  readonly name: string;
  readonly table: string;
  readonly fields: Field[];
  readonly relations: Relation[];
  readonly members: Set<string>;
}

const allowAuthenticated = (actor: Parameters<ResolvedPermissions['create']>[0]): boolean => isAuthenticated(actor);

function resolveFields(spec: ManagerSpec): Field[] {
  const fields: Field[] = [];
  const declaredId = spec.fields.id === undefined ? undefined : normalizeField(spec.fields.id);
  fields.push(Object.freeze({
    name: 'id', type: declaredId?.type === 'string' ? 'string' : 'integer', column: declaredId?.column ?? 'id', nullable: false, hasDefault: false, default: undefined,
    filterable: true, values: undefined, scale: 0, description: declaredId?.description ?? `Identifier of the ${spec.name}.`, primaryKey: true,
  }));
  for (const [name, raw] of Object.entries(spec.fields)) {
    if (name === 'id') continue;
    const field = normalizeField(raw);
    const scale = field.type === 'decimal' ? (field.scale ?? 2) : 0;
    const shape = { type: field.type, scale, values: field.values };
    const hasDefault = field.default !== undefined;
    fields.push(Object.freeze({
      name,
      type: field.type,
      column: field.column ?? snakeCase(name),
      nullable: field.nullable === true,
      hasDefault,
      default: hasDefault && field.default !== null ? fromStorage(shape, toStorage(shape, field.default)) : hasDefault ? null : undefined,
      filterable: field.filterable ?? true,
      values: field.values === undefined ? undefined : Object.freeze([...field.values]),
      scale,
      description: field.description,
      primaryKey: false,
    }));
  }
  return fields;
}

/**
 * Validates the whole set of declarations and resolves relations on both sides. Returns the
 * managers, or the list of every problem found (never stops at the first).
 */
export function resolveManagers(specs: readonly ManagerSpec[]): { managers: readonly Manager[]; problems: readonly string[] } {
  const problems: string[] = [];
  const given: unknown = specs;
  if (!Array.isArray(given) || specs.length === 0) return { managers: [], problems: ['defineApp needs at least one manager.'] };
  for (const spec of specs) problems.push(...checkManagerSpec(spec));
  if (problems.length > 0) return { managers: [], problems };

  const drafts = new Map<string, Draft>();
  const tables = new Map<string, string>();
  for (const spec of specs) {
    if (drafts.has(spec.name)) {
      problems.push(`Duplicate manager name '${spec.name}'.`);
      continue;
    }
    const table = spec.table ?? snakeCase(spec.name);
    const tableOwner = tables.get(table);
    if (tableOwner !== undefined) problems.push(`Managers '${tableOwner}' and '${spec.name}' share table '${table}'.`);
    tables.set(table, spec.name);
    const fields = resolveFields(spec);
    const columns = new Map<string, string>();
    for (const field of fields) {
      const other = columns.get(field.column);
      if (other !== undefined && other !== field.name) problems.push(`${spec.name}: fields '${other}' and '${field.name}' share column '${field.column}'.`);
      columns.set(field.column, field.name);
    }
    drafts.set(spec.name, { spec, name: spec.name, table, fields, relations: [], members: new Set(fields.map((field) => field.name)) });
  }

  const managers = new Map<string, Manager>();
  for (const draft of drafts.values()) managers.set(draft.name, buildManager(draft));
  const target = (owner: string, relationName: string, name: string): Manager | undefined => {
    const found = managers.get(name);
    if (found === undefined) {
      const known = [...managers.keys()].join(', ');
      problems.push(`${owner}.${relationName}: unknown relation target '${name}'. Managers: ${known}.`);
    }
    return found;
  };
  const add = (draft: Draft, relation: Relation, collision: string): void => {
    if (draft.members.has(relation.name)) {
      problems.push(collision);
      return;
    }
    draft.members.add(relation.name);
    draft.relations.push(Object.freeze(relation));
  };

  // Declared relations first, so that derived reverses collide with declared names (not the other way round).
  const declaredMany = new Map<string, { draft: Draft; name: string; spec: Extract<RelationSpec, { kind: 'many' }> }>();
  for (const draft of drafts.values()) {
    for (const [name, spec] of Object.entries(draft.spec.relations ?? {})) {
      if (spec.kind !== 'many') continue;
      const other = target(draft.name, name, spec.target);
      if (other === undefined) continue;
      const via = other.spec.relations?.[spec.via];
      if (via?.kind !== 'one' || via.target !== draft.name) {
        problems.push(`${draft.name}.${name}: 'via' must name a one relation on ${other.name} that targets ${draft.name}; '${spec.via}' does not.`);
        continue;
      }
      if (via.reverse !== undefined && via.reverse !== name) {
        problems.push(`${draft.name}.${name}: ${other.name}.${spec.via} declares its reverse as '${via.reverse}', not '${name}'.`);
        continue;
      }
      declaredMany.set(`${other.name}.${spec.via}`, { draft, name, spec });
    }
  }

  for (const draft of drafts.values()) {
    const self = managers.get(draft.name)!;
    for (const [name, spec] of Object.entries(draft.spec.relations ?? {})) {
      if (spec.kind === 'many') continue;
      const other = target(draft.name, name, spec.target);
      if (other === undefined) continue;
      const otherDraft = drafts.get(other.name)!;
      if (spec.kind === 'one') {
        const declared = declaredMany.get(`${draft.name}.${name}`);
        const reverseName = declared?.name ?? spec.reverse ?? lowerFirst(plural(draft.name));
        const column = spec.column ?? `${snakeCase(name)}_id`;
        if (draft.fields.some((field) => field.column === column)) problems.push(`${draft.name}.${name}: foreign key column '${column}' is also a field's column.`);
        const one: OneRelation = { kind: 'one', cardinality: 'one', name, target: other, reverseName, declared: true, description: spec.description, column, nullable: spec.nullable === true };
        add(draft, one, `${draft.name}.${name}: duplicate name '${name}'.`);
        const many: ManyRelation = {
          kind: 'many', cardinality: 'many', name: reverseName, target: self, reverseName: name, declared: declared !== undefined,
          description: declared?.spec.description ?? `The ${plural(draft.name)} whose ${name} is this ${other.name}.`, column,
        };
        add(otherDraft, many, `${draft.name}.${name}: its reverse name '${reverseName}' collides with a field or relation of ${other.name}; set 'reverse' to another name.`);
      } else {
        const reverseName = spec.reverse ?? lowerFirst(plural(draft.name));
        const through = spec.through ?? `${draft.table}_${snakeCase(name)}`;
        const sourceColumn = spec.sourceColumn ?? `${snakeCase(draft.name)}_id`;
        let targetColumn = spec.targetColumn ?? `${snakeCase(other.name)}_id`;
        if (spec.targetColumn === undefined && targetColumn === sourceColumn) targetColumn = `${snakeCase(name)}_id`;
        if (targetColumn === sourceColumn) problems.push(`${draft.name}.${name}: sourceColumn and targetColumn are both '${sourceColumn}'; the join table needs one column for each side.`);
        if (tables.has(through)) problems.push(`${draft.name}.${name}: join table '${through}' is also the table of ${tables.get(through)}.`);
        tables.set(through, `${draft.name}.${name}`);
        const forward: ManyToManyRelation = { kind: 'manyToMany', cardinality: 'manyToMany', name, target: other, reverseName, declared: true, description: spec.description, through, sourceColumn, targetColumn };
        add(draft, forward, `${draft.name}.${name}: duplicate name '${name}'.`);
        const backward: ManyToManyRelation = {
          kind: 'manyToMany', cardinality: 'manyToMany', name: reverseName, target: self, reverseName: name, declared: false,
          description: `The ${plural(draft.name)} whose ${name} include this ${other.name}.`, through, sourceColumn: targetColumn, targetColumn: sourceColumn,
        };
        add(otherDraft, backward, `${draft.name}.${name}: its reverse name '${reverseName}' collides with a field or relation of ${other.name}; set 'reverse' to another name.`);
      }
    }
  }
  for (const draft of drafts.values()) Object.freeze(draft.relations);
  problems.push(...generatedNameProblems([...managers.values()]));
  for (const manager of managers.values()) {
    for (const other of manager.catalog?.distinguishFrom ?? []) {
      if (!managers.has(other)) problems.push(`${manager.name}: catalog.distinguishFrom names '${other}', which is not a manager. Managers: ${[...managers.keys()].join(', ')}.`);
    }
  }
  problems.push(...sharedAliasProblems([...managers.values()], (name) => {
    const words = snakeCase(name).replace(/_/g, ' ');
    return [words, plural(words)];
  }));
  return { managers: problems.length > 0 ? [] : Object.freeze([...managers.values()]), problems };
}

function buildManager(draft: Draft): Manager {
  const permissions = draft.spec.permissions ?? {};
  const resolved: ResolvedPermissions = Object.freeze({
    read: permissions.read ?? (() => true),
    create: permissions.create ?? allowAuthenticated,
    update: permissions.update ?? allowAuthenticated,
    delete: permissions.delete ?? allowAuthenticated,
  });
  const fieldsByName = new Map(draft.fields.map((field) => [field.name, field]));
  let relationsByName: Map<string, Relation> | undefined;
  return {
    name: draft.name,
    description: draft.spec.description,
    table: draft.table,
    fields: Object.freeze(draft.fields),
    relations: draft.relations, // filled in place while resolving; read-only afterwards
    chatExposed: draft.spec.chatExposed === true,
    catalog: draft.spec.catalog,
    permissions: resolved,
    conditions: Object.freeze(namedConditions(draft)),
    spec: draft.spec,
    field: (name) => fieldsByName.get(name),
    relation: (name) => (relationsByName ??= new Map(draft.relations.map((relation) => [relation.name, relation]))).get(name),
  };
}

/** Generated GraphQL names must not collide: types (`Part`, `PartPage`, …) and root fields. */
function generatedNameProblems(managers: readonly Manager[]): string[] {
  const problems: string[] = [];
  const types = new Map<string, string>();
  const roots = new Map<string, string>();
  const claim = (map: Map<string, string>, key: string, owner: string, what: string): void => {
    const other = map.get(key);
    if (other !== undefined && other !== owner) problems.push(`Managers '${other}' and '${owner}' both generate the GraphQL ${what} '${key}'.`);
    map.set(key, owner);
  };
  for (const manager of managers) {
    for (const suffix of ['', 'Page', 'Filter', 'CreateInput', 'UpdateInput']) claim(types, `${manager.name}${suffix}`, manager.name, 'type');
    const root = lowerFirst(manager.name);
    claim(roots, root, manager.name, 'query');
    claim(roots, `${root}List`, manager.name, 'query');
  }
  return problems;
}
