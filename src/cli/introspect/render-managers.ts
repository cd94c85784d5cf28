import type { IntrospectedSchema } from '../../data/index.js';
import type { DefaultValue } from './column-types.js';
import { planManagers } from './plan-managers.js';
import type { FieldPlan, KeyPlan, ManagerPlan, RelationPlan, SchemaPlan, SkippedTable } from './plan-managers.js';

/** What `plumb introspect` made of a schema, for its one-line summary. */
export interface IntrospectSummary {
  readonly tables: number;
  readonly managers: number;
  readonly manyToMany: number;
  readonly skippedTables: readonly SkippedTable[];
  readonly skippedColumns: number;
}

export interface RenderedManagers {
  /** A TypeScript module: one `defineManager` per table, then `export default defineHost(…)`. */
  readonly source: string;
  readonly summary: IntrospectSummary;
}

const width = 100;

/** A TypeScript string literal in single quotes. */
function quote(value: string): string {
  return `'${JSON.stringify(value).slice(1, -1).replace(/\\"/g, '"').replace(/'/g, "\\'")}'`;
}

/** Text from the database (names, types, defaults) made safe inside a comment. */
function safe(text: string): string {
  return text.replace(/[\r\n\u2028\u2029]+/g, ' ').replace(/\*\//g, '* /');
}

/** `// …` lines at `indent`, wrapped at the page width. */
function comment(text: string, indent: string, lead = '// ', follow = lead): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of safe(text).split(/\s+/).filter((part) => part !== '')) {
    if (line !== '' && indent.length + lead.length + line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(line);
  return lines.map((text, index) => `${indent}${index === 0 ? lead : follow}${text}`.trimEnd());
}

function sentence(text: string): string {
  const trimmed = text.trim();
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

function literal(value: DefaultValue): string {
  return typeof value === 'string' ? quote(value) : String(value);
}

function keyLine(key: KeyPlan): string {
  return `    id: { type: '${key.type}'${key.column === undefined ? '' : `, column: ${quote(key.column)}`} },`;
}

function fieldLines(field: FieldPlan): string[] {
  const parts = [`type: '${field.type}'`];
  if (field.column !== undefined) parts.push(`column: ${quote(field.column)}`);
  if (field.scale !== undefined) parts.push(`scale: ${field.scale}`);
  if (field.values !== undefined) parts.push(`values: [${field.values.map(quote).join(', ')}]`);
  if (field.nullable) parts.push('nullable: true');
  if (field.default !== undefined) parts.push(`default: ${literal(field.default)}`);
  return [...field.notes.flatMap((note) => comment(sentence(upperFirst(note)), '    ')), `    ${field.name}: { ${parts.join(', ')} },`];
}

function relationLine(relation: RelationPlan): string {
  const parts = [`kind: '${relation.kind}'`, `target: '${relation.target}'`];
  if (relation.kind === 'one') {
    parts.push(`column: ${quote(relation.column)}`);
    if (relation.nullable) parts.push('nullable: true');
  } else {
    parts.push(`through: ${quote(relation.through)}`, `sourceColumn: ${quote(relation.sourceColumn)}`, `targetColumn: ${quote(relation.targetColumn)}`);
  }
  if (relation.reverse !== undefined) parts.push(`reverse: '${relation.reverse}'`);
  return `    ${relation.name}: { ${parts.join(', ')} },`;
}

function upperFirst(text: string): string {
  return text.length === 0 ? text : text[0]!.toUpperCase() + text.slice(1);
}

function managerBlock(manager: ManagerPlan): string[] {
  const lines = manager.notes.flatMap((note) => comment(note, ''));
  lines.push(`export const ${manager.name} = defineManager({`, `  name: '${manager.name}',`, `  table: ${quote(manager.table)},`);
  const fields = [
    ...(manager.key === undefined ? [] : [keyLine(manager.key)]),
    ...manager.fields.flatMap(fieldLines),
    ...manager.skippedColumns.flatMap((skipped) => comment(`${skipped.column} is not mapped: ${sentence(skipped.reason)}`, '    ')),
  ];
  lines.push(...(fields.length === 0 ? ['  fields: {},'] : ['  fields: {', ...fields, '  },']));
  if (manager.relations.length > 0) {
    lines.push('  relations: {', ...manager.relations.map(relationLine), '  },');
  }
  lines.push('  // Nothing reaches a model until you set this to true.', '  chatExposed: false,', '});');
  return lines;
}

function count(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

export function summarize(plan: SchemaPlan): IntrospectSummary {
  return {
    tables: plan.tables,
    managers: plan.managers.length,
    manyToMany: plan.joinTables.length,
    skippedTables: plan.skippedTables,
    skippedColumns: plan.managers.reduce((total, manager) => total + manager.skippedColumns.length, 0),
  };
}

function header(plan: SchemaPlan, summary: IntrospectSummary): string[] {
  const database = plan.dialect === 'sqlite' ? 'an existing SQLite database' : `an existing PostgreSQL database (schema "${safe(plan.schema)}")`;
  const skipped = summary.skippedTables.length === 0 ? '' : `; ${count(summary.skippedTables.length, 'table')} skipped`;
  const paragraphs = [
    `Plumb managers over the tables of ${database}, written by \`plumb introspect\`: ${count(summary.tables, 'table')} → ${count(summary.managers, 'manager')}, ${count(summary.manyToMany, 'many-to-many relation')}${skipped}.`,
    "tables: 'attach' (at the end): the tables are yours. Plumb checks each mapped table and column when it starts and never creates, alters or drops one.",
  ];
  const lines = ['/**'];
  for (const paragraph of paragraphs) lines.push(...comment(paragraph, '', ' * '), ' *');
  lines.push(' * Before anything reaches a model:');
  lines.push(...comment("Descriptions are yours to write. The assistant reads each manager's `description` (and its fields') to know what the table means: add one to every manager you expose.", '', ' * - ', ' *   '));
  lines.push(...comment('Permissions default to: everyone may read every row; signed-in users may create, update and delete. Tighten them with `permissions: { read, create, update, delete }`.', '', ' * - ', ' *   '));
  lines.push(...comment('Every manager has chatExposed: false: nothing reaches a model until you set it to true.', '', ' * - ', ' *   '));
  if (summary.skippedTables.length > 0) {
    lines.push(' *', ' * Skipped tables:');
    for (const skipped of summary.skippedTables) lines.push(...comment(`${skipped.table}: ${sentence(skipped.reason)}`, '', ' * - ', ' *   '));
  }
  lines.push(' */');
  return lines;
}

/** The module of manager definitions for an introspected schema. Pure and deterministic. */
export function renderManagers(schema: IntrospectedSchema): RenderedManagers {
  const plan = planManagers(schema);
  const summary = summarize(plan);
  const lines = [...header(plan, summary), "import { defineHost, defineManager } from 'plumb-agent';", ''];
  for (const manager of plan.managers) lines.push(...managerBlock(manager), '');
  lines.push('export default defineHost({');
  const names = plan.managers.map((manager) => manager.name);
  const oneLine = `  managers: [${names.join(', ')}],`;
  lines.push(...(oneLine.length <= width ? [oneLine] : ['  managers: [', ...names.map((name) => `    ${name},`), '  ],']));
  lines.push("  tables: 'attach',", '});', '');
  return { source: lines.join('\n'), summary };
}
