import { sql } from 'kysely';
import { PlumbError } from '../core/index.js';
import { column, idColumn } from './conditions.js';
import type { SqlExecutor } from './database.js';
import { checkInput } from './inputs.js';
import type { CheckedInput } from './inputs.js';
import { keyShape } from './keys.js';
import type { RowKey } from './keys.js';
import type { Manager } from './model.js';
import type { RequestScope } from './request-scope.js';
import type { Row } from './row-codec.js';

function forbidden(manager: Manager, action: string): PlumbError {
  return new PlumbError('forbidden', `You may not ${action} ${manager.name} rows.`, { details: { manager: manager.name, action } });
}

function notFound(manager: Manager, id: RowKey): PlumbError {
  return new PlumbError('not_found', `No ${manager.name} with id ${id}.`, { details: { manager: manager.name, id } });
}

/** Every referenced row must exist and be visible to the actor; errors name the field. */
async function checkReferences(scope: RequestScope, manager: Manager, checked: CheckedInput): Promise<void> {
  const pending: Promise<void>[] = [];
  const expect = (name: string, target: Manager, id: RowKey): void => {
    pending.push(
      scope.byId(target, id).then((row) => {
        if (row === null) throw new PlumbError('invalid_input', `${manager.name}.${name}: no ${target.name} with id ${id}.`, { details: { manager: manager.name, field: name, id } });
      }),
    );
  };
  for (const [relation, id] of checked.references) if (id !== null) expect(relation.name, relation.target, id);
  for (const [relation, ids] of checked.links) for (const id of ids) expect(relation.name, relation.target, id);
  const results = await Promise.allSettled(pending);
  for (const result of results) if (result.status === 'rejected') throw result.reason;
}

async function writeLinks(scope: RequestScope, tx: SqlExecutor, id: RowKey, checked: CheckedInput, replace: boolean): Promise<void> {
  for (const [relation, ids] of checked.links) {
    const through = sql.table(relation.through);
    if (replace) await scope.run(sql`delete from ${through} where ${sql.ref(relation.sourceColumn)} = ${id}`, tx);
    if (ids.length === 0) continue;
    const rows = ids.map((target) => sql`(${id}, ${target})`);
    await scope.run(sql`insert into ${through} (${sql.ref(relation.sourceColumn)}, ${sql.ref(relation.targetColumn)}) values ${sql.join(rows)}`, tx);
  }
}

async function fetchRow(scope: RequestScope, manager: Manager, id: RowKey, executor?: SqlExecutor): Promise<Row | null> {
  const codec = scope.runtime.codec(manager);
  const result = await scope.run(sql`select ${codec.select('t0')} from ${sql.table(manager.table)} as t0 where ${column('t0', idColumn(manager))} = ${id}`, executor);
  const raw = result.rows[0];
  return raw === undefined ? null : codec.decode(raw);
}

export async function createRow(scope: RequestScope, manager: Manager, input: Readonly<Record<string, unknown>>): Promise<Row> {
  const checked = checkInput(scope.runtime.database.values, manager, input, 'create');
  if (!manager.permissions.create(scope.actor, checked.normalized)) throw forbidden(manager, 'create');
  await checkReferences(scope, manager, checked);
  const columns = [...checked.values.keys()];
  const values = [...checked.values.values()];
  return scope.runtime.database.transaction(async (tx) => {
    const inserted = await scope.run(
      columns.length === 0
        ? sql`insert into ${sql.table(manager.table)} default values returning ${sql.ref(idColumn(manager))} as id`
        : sql`insert into ${sql.table(manager.table)} (${sql.join(columns.map((name) => sql.ref(name)))}) values (${sql.join(values)}) returning ${sql.ref(idColumn(manager))} as id`,
      tx,
    );
    const id = scope.runtime.database.values.fromStorage(keyShape(manager), inserted.rows[0]?.id) as RowKey;
    await writeLinks(scope, tx, id, checked, false);
    const row = await fetchRow(scope, manager, id, tx);
    if (row === null) throw notFound(manager, id);
    return row;
  });
}

export async function updateRow(scope: RequestScope, manager: Manager, id: RowKey, input: Readonly<Record<string, unknown>>): Promise<Row> {
  const existing = await scope.byId(manager, id);
  if (existing === null) throw notFound(manager, id);
  const checked = checkInput(scope.runtime.database.values, manager, input, 'update');
  if (!manager.permissions.update(scope.actor, existing, checked.normalized)) throw forbidden(manager, 'update');
  await checkReferences(scope, manager, checked);
  return scope.runtime.database.transaction(async (tx) => {
    if (checked.values.size > 0) {
      const assignments = [...checked.values].map(([name, value]) => sql`${sql.ref(name)} = ${value}`);
      await scope.run(sql`update ${sql.table(manager.table)} set ${sql.join(assignments)} where ${sql.ref(idColumn(manager))} = ${id}`, tx);
    }
    await writeLinks(scope, tx, id, checked, true);
    const row = await fetchRow(scope, manager, id, tx);
    if (row === null) throw notFound(manager, id);
    return row;
  });
}

export async function deleteRow(scope: RequestScope, manager: Manager, id: RowKey): Promise<Row> {
  const existing = await scope.byId(manager, id);
  if (existing === null) throw notFound(manager, id);
  if (!manager.permissions.delete(scope.actor, existing)) throw forbidden(manager, 'delete');
  return scope.runtime.database.transaction(async (tx) => {
    for (const relation of manager.relations) {
      if (relation.kind !== 'many') continue;
      const found = await scope.run(sql`select 1 as hit from ${sql.table(relation.target.table)} where ${sql.ref(relation.column)} = ${id} limit 1`, tx);
      if (found.rows.length > 0) {
        throw new PlumbError(
          'row_referenced',
          `${manager.name} ${id} is still the ${relation.reverseName} of some ${relation.target.name} rows (${relation.target.name}.${relation.reverseName}); delete or reassign them first.`,
          { details: { manager: manager.name, id, referencedBy: `${relation.target.name}.${relation.reverseName}` } },
        );
      }
    }
    for (const relation of manager.relations) {
      if (relation.kind === 'manyToMany') await scope.run(sql`delete from ${sql.table(relation.through)} where ${sql.ref(relation.sourceColumn)} = ${id}`, tx);
    }
    await scope.run(sql`delete from ${sql.table(manager.table)} where ${sql.ref(idColumn(manager))} = ${id}`, tx);
    return existing;
  });
}
