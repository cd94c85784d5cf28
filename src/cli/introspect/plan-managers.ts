import { plural, snakeCase, sqlNamePattern } from '../../data/index.js';
import type { FieldType, IntrospectedColumn, IntrospectedForeignKey, IntrospectedSchema, IntrospectedTable } from '../../data/index.js';
import { keyType, literalDefault, mapColumn } from './column-types.js';
import type { DefaultValue } from './column-types.js';
import { fieldBaseName, lowerFirst, managerNames, Members, relationBaseName, upperFirst } from './member-names.js';

/**
 * Manager declarations decided from an introspected schema: names, keys, fields, relations and
 * what is skipped, each with the reason the output states. Pure; `renderManagers` writes it out.
 */
export interface FieldPlan {
  readonly name: string;
  /** Written when it is not the column Plumb derives from the name (its snake_case). */
  readonly column: string | undefined;
  readonly type: FieldType;
  readonly nullable: boolean;
  readonly scale: number | undefined;
  readonly values: readonly string[] | undefined;
  readonly default: DefaultValue | undefined;
  readonly notes: readonly string[];
}

/** A key other than Plumb's default (an integer `id` column). */
export interface KeyPlan {
  readonly type: 'integer' | 'string';
  /** Undefined when the column is `id`. */
  readonly column: string | undefined;
}

export type RelationPlan =
  | { readonly kind: 'one'; readonly name: string; readonly target: string; readonly column: string; readonly nullable: boolean; readonly reverse: string | undefined }
  | { readonly kind: 'manyToMany'; readonly name: string; readonly target: string; readonly through: string; readonly sourceColumn: string; readonly targetColumn: string; readonly reverse: string | undefined };

export interface SkippedColumn {
  readonly column: string;
  readonly reason: string;
}

export interface ManagerPlan {
  readonly name: string;
  readonly table: string;
  readonly key: KeyPlan | undefined;
  readonly fields: readonly FieldPlan[];
  readonly relations: readonly RelationPlan[];
  readonly skippedColumns: readonly SkippedColumn[];
  /** Said above the manager. */
  readonly notes: readonly string[];
}

export interface SkippedTable {
  readonly table: string;
  readonly reason: string;
}

export interface SchemaPlan {
  readonly dialect: IntrospectedSchema['dialect'];
  readonly schema: string;
  /** Tables introspected. */
  readonly tables: number;
  /** In dependency order: a manager comes after the managers its `one` relations point to. */
  readonly managers: readonly ManagerPlan[];
  /** Join tables mapped as many-to-many relations. */
  readonly joinTables: readonly string[];
  readonly skippedTables: readonly SkippedTable[];
}

type Dialect = IntrospectedSchema['dialect'];

interface Candidate {
  readonly table: IntrospectedTable;
  readonly key: IntrospectedColumn;
  readonly keyType: 'integer' | 'string';
}

function list(columns: readonly string[]): string {
  return columns.join(', ');
}

/** The single-column foreign key on `column`, if there is exactly one. */
function singleKey(table: IntrospectedTable, column: string): IntrospectedForeignKey | undefined {
  const keys = table.foreignKeys.filter((key) => key.columns.length === 1 && key.columns[0] === column);
  return keys.length === 1 ? keys[0] : undefined;
}

/**
 * A join table: its key (the primary key, or a unique key when it has none) is two required
 * columns, each a single-column foreign key. Any other column it holds is returned as `extra`.
 */
function joinKeys(table: IntrospectedTable): { readonly keys: readonly [IntrospectedForeignKey, IntrospectedForeignKey]; readonly extra: readonly IntrospectedColumn[] } | undefined {
  const pairs = table.primaryKey.length > 0 ? [table.primaryKey] : table.uniqueKeys.filter((columns) => columns.length === 2);
  for (const pair of pairs) {
    if (pair.length !== 2 || pair[0] === pair[1]) continue;
    const columns = pair.map((name) => table.columns.find((column) => column.name === name));
    if (columns.some((column) => column === undefined || column.nullable || !sqlNamePattern.test(column.name))) continue;
    const [first, second] = pair.map((name) => singleKey(table, name));
    if (first === undefined || second === undefined) continue;
    return { keys: [first, second], extra: table.columns.filter((column) => !pair.includes(column.name)) };
  }
  return undefined;
}

export function planManagers(schema: IntrospectedSchema): SchemaPlan {
  const { dialect } = schema;
  const skippedTables: SkippedTable[] = [];
  const candidates: Candidate[] = [];
  const joins: { table: IntrospectedTable; keys: readonly [IntrospectedForeignKey, IntrospectedForeignKey]; extra: readonly IntrospectedColumn[] }[] = [];
  for (const table of schema.tables) {
    const found = classify(dialect, table);
    if (found.kind === 'join') joins.push({ table, ...found.join });
    else if (found.kind === 'skip') skippedTables.push({ table: table.name, reason: found.reason });
    else candidates.push(found.candidate);
  }
  const names = managerNames(candidates.map((candidate) => candidate.table.name));
  const byTable = new Map(candidates.map((candidate) => [candidate.table.name, candidate]));

  /** Why a foreign key is not a relation Plumb can map, or undefined when it is. */
  const referenceProblem = (key: IntrospectedForeignKey, owner: Candidate | undefined): string | undefined => {
    const where = `${key.referencedSchema === undefined ? '' : `${key.referencedSchema}.`}${key.table}(${list(key.referencedColumns)})`;
    if (key.columns.length !== 1) return `part of a foreign key of ${key.columns.length} columns to ${where}; Plumb's relations are single-column`;
    if (key.referencedSchema !== undefined) return `references ${where}, in another schema`;
    const target = byTable.get(key.table);
    if (target === undefined) return `references ${where}, whose table is not mapped (see the skipped tables above)`;
    if (key.referencedColumns[0] !== target.key.name) return `references ${where}, which is not that table's key`;
    if (owner !== undefined && key.columns[0] === owner.key.name) return `it also references ${where} (one to one), and Plumb maps it as the key only`;
    return undefined;
  };

  const drafts = new Map<string, { plan: MutablePlan; members: Members; candidate: Candidate }>();
  for (const candidate of candidates) {
    const { table } = candidate;
    const members = new Members();
    const plan: MutablePlan = { name: names.get(table.name)!, table: table.name, key: keyPlan(candidate), fields: [], relations: [], skippedColumns: [], notes: keyNotes(dialect, candidate) };
    const references = new Map<string, IntrospectedForeignKey>();
    const notes = new Map<string, string>();
    for (const key of table.foreignKeys) {
      const problem = referenceProblem(key, candidate);
      for (const column of key.columns) {
        if (problem !== undefined) notes.set(column, notes.get(column) ?? problem);
        else if (references.has(column)) notes.set(column, `also references ${key.table}(${list(key.referencedColumns)}); Plumb maps one reference per column`);
        else references.set(column, key);
      }
    }
    for (const column of table.columns) {
      if (column.name === candidate.key.name || references.has(column.name)) continue;
      const field = fieldPlan(dialect, column, members, notes.get(column.name));
      if ('reason' in field) plan.skippedColumns.push(field);
      else plan.fields.push(field);
    }
    for (const column of table.columns) {
      const key = references.get(column.name);
      if (key === undefined) continue;
      const target = names.get(key.table)!;
      let base = relationBaseName(column.name, target);
      if (members.has(base)) base = `${base}Ref`;
      plan.relations.push({ kind: 'one', name: members.claim(base), target, column: column.name, nullable: column.nullable, reverse: undefined });
      if (notes.has(column.name)) plan.notes.push(`${column.name} ${notes.get(column.name)!}.`);
    }
    const keyNote = notes.get(candidate.key.name);
    if (keyNote !== undefined) plan.notes.push(`The key ${candidate.key.name}: ${keyNote}.`);
    drafts.set(table.name, { plan, members, candidate });
  }

  const joinTables: string[] = [];
  for (const { table, keys: [first, second], extra } of joins) {
    const refused = [first, second].map((key) => ({ column: key.columns[0]!, problem: referenceProblem(key, undefined) })).find((found) => found.problem !== undefined);
    if (refused !== undefined) {
      skippedTables.push({ table: table.name, reason: `a join table, but its column ${refused.column} ${refused.problem!}` });
      continue;
    }
    const source = drafts.get(first.table)!;
    const targetName = names.get(second.table)!;
    const base = plural(relationBaseName(second.columns[0]!, targetName));
    const name = source.members.claim(source.members.has(base) ? `${base}Ref` : base);
    source.plan.relations.push({
      kind: 'manyToMany', name, target: targetName,
      through: table.name, sourceColumn: first.columns[0]!, targetColumn: second.columns[0]!, reverse: undefined,
    });
    if (extra.length > 0) {
      source.plan.notes.push(`${name} goes through ${table.name}, whose other ${extra.length === 1 ? 'column' : 'columns'} (${list(extra.map((column) => column.name))}) ${extra.length === 1 ? 'is' : 'are'} not mapped: a relation holds only the two keys, and linking rows through Plumb leaves ${extra.length === 1 ? 'it' : 'them'} to the database's default or null.`);
    }
    joinTables.push(table.name);
  }

  assignReverses([...drafts.values()], new Map([...drafts.values()].map((draft) => [draft.plan.name, draft.members])));
  return {
    dialect,
    schema: schema.schema,
    tables: schema.tables.length,
    managers: dependencyOrder([...drafts.values()].map((draft) => draft.plan)),
    joinTables,
    skippedTables: skippedTables.sort((a, b) => (a.table < b.table ? -1 : a.table > b.table ? 1 : 0)),
  };
}

interface MutablePlan extends ManagerPlan {
  readonly fields: FieldPlan[];
  relations: RelationPlan[];
  readonly skippedColumns: SkippedColumn[];
  readonly notes: string[];
}

type Classified =
  | { readonly kind: 'manager'; readonly candidate: Candidate }
  | { readonly kind: 'join'; readonly join: NonNullable<ReturnType<typeof joinKeys>> }
  | { readonly kind: 'skip'; readonly reason: string };

/** A table is a manager, a join table, or skipped (and why). */
function classify(dialect: Dialect, table: IntrospectedTable): Classified {
  if (!sqlNamePattern.test(table.name)) return { kind: 'skip', reason: 'its name is not a plain SQL name (letters, digits and _), which Plumb needs to map it' };
  const join = joinKeys(table);
  if (join !== undefined) {
    // Linking rows inserts the two keys alone: a required extra column would make every link fail.
    const required = join.extra.filter((column) => !column.nullable && !column.hasDefault);
    if (required.length === 0) return { kind: 'join', join };
    return { kind: 'skip', reason: `a join table of ${join.keys[0].table} and ${join.keys[1].table}, but its ${required.length === 1 ? 'column' : 'columns'} ${list(required.map((column) => column.name))} ${required.length === 1 ? 'is' : 'are'} required without a default, which linking rows through a relation could not fill; give ${required.length === 1 ? 'it' : 'them'} a default or allow null, or give the table a single-column key to read it as a manager` };
  }
  const reason = tableProblem(dialect, table);
  return typeof reason === 'string' ? { kind: 'skip', reason } : { kind: 'manager', candidate: reason };
}

function tableProblem(dialect: Dialect, table: IntrospectedTable): Candidate | string {
  if (table.primaryKey.length === 0) return 'it has no primary key (Plumb needs a single-column key)';
  if (table.primaryKey.length > 1) return compositeKeyProblem(table);
  const key = table.columns.find((column) => column.name === table.primaryKey[0])!;
  const type = keyType(dialect, key);
  if (type === undefined) return `its key ${key.name} has type ${key.dataType || '(none)'}; Plumb's keys are integers or strings (text, varchar, uuid)`;
  if (!sqlNamePattern.test(key.name)) return `its key column's name is not a plain SQL name (letters, digits and _)`;
  for (const column of table.columns) {
    if (column === key || column.nullable || column.hasDefault) continue;
    // Plumb's attach check refuses a table with a required column no field fills: the manager would stop the app.
    const mapping = mapColumn(dialect, column);
    const unmapped = !sqlNamePattern.test(column.name) ? 'its name is not a plain SQL name' : mapping.kind === 'unsupported' ? mapping.reason : undefined;
    if (unmapped !== undefined) return `its column ${column.name} is required, has no default and cannot be mapped (${unmapped}), so Plumb could not create its rows; give it a default or allow null, then introspect again`;
  }
  return { table, key, keyType: type };
}

/** Why a table keyed by several columns, and not a join table, is skipped: a tag list, or another shape. */
function compositeKeyProblem(table: IntrospectedTable): string {
  const key = `its primary key (${list(table.primaryKey)}) has ${table.primaryKey.length} columns`;
  const owners = table.primaryKey.flatMap((column) => singleKey(table, column) ?? []);
  if (table.primaryKey.length === 2 && owners.length === 1) {
    const owner = owners[0]!;
    const value = table.primaryKey.find((column) => column !== owner.columns[0])!;
    return `a list of ${value} values per row of ${owner.table} (${key}: ${owner.columns[0]!} → ${owner.table}), and Plumb has no many-valued field; to read it, give the table a single-column key (id INTEGER PRIMARY KEY, keeping (${list(table.primaryKey)}) unique) and introspect again: it becomes a manager with a relation to ${owner.table}`;
  }
  return `${key} and it is neither a join table (two foreign keys) nor a list of values per row (one foreign key and a value); Plumb needs a single-column key`;
}

function keyPlan(candidate: Candidate): KeyPlan | undefined {
  if (candidate.keyType === 'integer' && candidate.key.name === 'id') return undefined;
  return { type: candidate.keyType, column: candidate.key.name === 'id' ? undefined : candidate.key.name };
}

function keyNotes(dialect: Dialect, candidate: Candidate): string[] {
  if (candidate.keyType !== 'integer' || candidate.key.hasDefault) return [];
  const why = dialect === 'sqlite'
    ? `SQLite assigns ids only to a column declared INTEGER PRIMARY KEY, and ${candidate.key.name} is declared ${candidate.key.dataType}`
    : `${candidate.key.name} has no identity, serial or default`;
  return [`The database does not number new rows (${why}), and Plumb leaves integer ids to the database: creates through Plumb will fail until it does.`];
}

function fieldPlan(dialect: Dialect, column: IntrospectedColumn, members: Members, reference: string | undefined): FieldPlan | SkippedColumn {
  if (!sqlNamePattern.test(column.name)) return { column: column.name, reason: 'its name is not a plain SQL name (letters, digits and _)' };
  if (column.generated) return { column: column.name, reason: 'computed by the database (a generated column), which Plumb would try to write' };
  const mapping = mapColumn(dialect, column);
  if (mapping.kind === 'unsupported') return { column: column.name, reason: mapping.reason };
  const name = members.claim(fieldBaseName(column.name));
  const notes: string[] = [];
  if (reference !== undefined) notes.push(reference);
  if (mapping.note !== undefined) notes.push(mapping.note);
  let value: DefaultValue | undefined;
  const expression = column.defaultExpression;
  if (expression !== undefined && !/^null(::.*)?$/i.test(expression.trim())) {
    value = literalDefault(expression, mapping);
    if (value === undefined) {
      notes.push(column.nullable
        ? `the database's default (${expression}) does not apply to creates through Plumb, which write null when the input leaves it out`
        : `the database fills it (default ${expression}), but Plumb's create still asks for it: give it a default here or allow null`);
    }
  } else if (column.hasDefault && expression === undefined && !column.nullable) {
    notes.push("the database numbers it (identity), but Plumb's create still asks for it");
  }
  return {
    name,
    column: snakeCase(name) === column.name ? undefined : column.name,
    type: mapping.type,
    nullable: column.nullable,
    scale: mapping.scale,
    values: mapping.values,
    default: value,
    notes,
  };
}

/**
 * Reverse names: the default (the camelCase plural of the manager) unless two relations of one
 * manager point to the same target or the default is taken on the target; then
 * `<relation><Managers>` (`senderMessages`), unique on the target.
 */
function assignReverses(drafts: readonly { plan: MutablePlan }[], members: ReadonlyMap<string, Members>): void {
  for (const { plan } of drafts) {
    const perTarget = new Map<string, number>();
    for (const relation of plan.relations) perTarget.set(relation.target, (perTarget.get(relation.target) ?? 0) + 1);
    plan.relations = plan.relations.map((relation) => {
      const target = members.get(relation.target)!;
      const fallback = lowerFirst(plural(plan.name));
      if (perTarget.get(relation.target) === 1 && !target.has(fallback)) {
        target.claim(fallback);
        return relation;
      }
      return { ...relation, reverse: target.claim(`${relation.name}${upperFirst(plural(plan.name))}`) };
    });
  }
}

/** Targets before the managers pointing to them; ties and cycles broken by name. */
function dependencyOrder(plans: readonly ManagerPlan[]): ManagerPlan[] {
  const remaining = new Map(plans.map((plan) => [plan.name, plan]));
  const ordered: ManagerPlan[] = [];
  const sorted = [...remaining.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  while (remaining.size > 0) {
    const ready = sorted.find((name) => remaining.has(name) && remaining.get(name)!.relations.every((relation) => relation.target === name || !remaining.has(relation.target)));
    const next = ready ?? sorted.find((name) => remaining.has(name))!;
    ordered.push(remaining.get(next)!);
    remaining.delete(next);
  }
  return ordered;
}
