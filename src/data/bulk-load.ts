import { sql } from 'kysely';
import { PlumbError } from '../core/index.js';
import { idColumn } from './conditions.js';
import type { Database } from './database.js';
import { checkInput } from './inputs.js';
import { createIndexes, dropIndexes, indexedColumns } from './schema-sync.js';
import { assignsKeys } from './keys.js';
import type { RowKey } from './keys.js';
import type { Manager } from './model.js';

/**
 * Trusted bulk insert for seeding: no permissions, values checked and converted as create does,
 * `one` relations as ids, `manyToMany` as id lists, explicit ids allowed. One transaction; rows
 * without an id get the next free ones; afterwards the table's id generator is moved past them.
 * Returns how many rows were inserted.
 */
export async function loadRows(database: Database, manager: Manager, rows: Iterable<Readonly<Record<string, unknown>>>): Promise<number> {
  const idName = idColumn(manager);
  const integerKeys = assignsKeys(manager);
  const max = await database.execute(sql`select max(${sql.ref(idName)}) as m from ${sql.table(manager.table)}`.compile(database.kysely));
  const empty = max.rows[0]?.m === null || max.rows[0]?.m === undefined;
  let nextId = integerKeys ? Number(max.rows[0]?.m ?? 0) + 1 : 0;
  let count = 0;
  // Into an empty table, building the indexes once afterwards is much faster than updating them
  // row by row (random B-tree inserts); they are rebuilt whatever happens.
  const indexes = empty ? indexedColumns(manager) : [];
  await dropIndexes(database, manager.table, indexes);
  try {
    await database.bulk((writer) => {
      let columns: string[] | undefined;
      let columnsKey = '';
      for (const row of rows) {
        const checked = checkInput(database.values, manager, row, 'load');
        let id = checked.values.get(idName) as RowKey | undefined;
        if (id === undefined) {
          if (!integerKeys) throw new PlumbError('invalid_input', `${manager.name}.id: a row of a manager with string keys gives its key.`, { details: { manager: manager.name, field: 'id' } });
          id = nextId++;
          checked.values.set(idName, id);
        } else if (typeof id === 'number' && id >= nextId) {
          nextId = id + 1;
        }
        const key = [...checked.values.keys()].join(',');
        if (columns === undefined || key !== columnsKey) {
          columns = [...checked.values.keys()];
          columnsKey = key;
        }
        writer.append(manager.table, columns, [...checked.values.values()]);
        for (const [relation, ids] of checked.links) {
          for (const target of ids) writer.append(relation.through, [relation.sourceColumn, relation.targetColumn], [id, target]);
        }
        count++;
      }
    });
  } catch (error) {
    if (error instanceof PlumbError) {
      throw new PlumbError(error.code, `load ${manager.name} row ${count + 1}: ${error.message}`, { details: { ...error.details, row: count + 1 }, cause: error });
    }
    const message = error instanceof Error ? error.message : String(error);
    throw new PlumbError('conflict', `load ${manager.name} row ${count + 1}: the database refused it (${message}). Check ids and that referenced rows are loaded first.`, {
      details: { manager: manager.name, row: count + 1 },
      cause: error,
    });
  } finally {
    await createIndexes(database, manager.table, indexes);
  }
  if (count > 0) await database.syncIdentity(manager.table, idName);
  return count;
}
