import { reservedManagerNames, reservedMemberNames } from '../../data/index.js';
import { camelCase, managerBaseName } from './inflect.js';

/** The names generated definitions give managers, fields and relations, as Plumb accepts them. Pure. */

const memberPattern = /^[a-z][a-zA-Z0-9]*$/;
const reservedMembers = new Set(reservedMemberNames);

export function lowerFirst(name: string): string {
  return name.length === 0 ? name : name[0]!.toLowerCase() + name.slice(1);
}

export function upperFirst(name: string): string {
  return name.length === 0 ? name : name[0]!.toUpperCase() + name.slice(1);
}

/** Names of one manager's members: fields and relations, its own and the reverses landing on it. */
export class Members {
  readonly #taken = new Set<string>(['id']);

  has(name: string): boolean {
    return this.#taken.has(name);
  }

  /** `base`, else `base2`, `base3`…; the name is taken from then on. */
  claim(base: string): string {
    let name = base;
    for (let n = 2; this.#taken.has(name); n++) name = `${base}${n}`;
    this.#taken.add(name);
    return name;
  }
}

/** A field name Plumb accepts: camelCase letters and digits, not a lookup operator, `pk` or `id`. */
export function fieldBaseName(column: string): string {
  const camel = camelCase(column);
  if (!memberPattern.test(camel)) return `field${upperFirst(camel)}`;
  return reservedMembers.has(camel) || camel === 'id' ? `${camel}Field` : camel;
}

/** A relation named after its foreign-key column: `author_id` → author, `id_author` → author, `parent` → parent. */
export function relationBaseName(column: string, target: string): string {
  const camel = camelCase(column);
  const name = lowerFirst(camel.replace(/(?<=.)(Id|Fk|Key|Ref)$/, '').replace(/^(id|fk)(?=[A-Z])/, ''));
  if (!memberPattern.test(name)) return lowerFirst(target);
  return reservedMembers.has(name) || name === 'id' ? `${name}Ref` : name;
}

/**
 * Manager names for tables, in the order given: the table singular and PascalCase, `Table` after
 * a name Plumb reserves, a number after a taken one. Each manager generates GraphQL types and root
 * fields (`Part`, `PartPage`, `partList`…), and no two managers may share one.
 */
export function managerNames(tables: readonly string[]): Map<string, string> {
  const reserved = new Set(reservedManagerNames);
  const claimed = new Set<string>();
  const generated = (name: string): string[] => [
    ...['', 'Page', 'Filter', 'CreateInput', 'UpdateInput'].map((suffix) => `${name}${suffix}`),
    `query:${lowerFirst(name)}`, `query:${lowerFirst(name)}List`,
  ];
  const names = new Map<string, string>();
  for (const table of tables) {
    let base = managerBaseName(table);
    if (!/^[A-Z]/.test(base)) base = `Table${base}`;
    if (reserved.has(base)) base = `${base}Table`;
    let name = base;
    for (let n = 2; generated(name).some((taken) => claimed.has(taken)) || reserved.has(name); n++) name = `${base}${n}`;
    for (const taken of generated(name)) claimed.add(taken);
    names.set(table, name);
  }
  return names;
}
