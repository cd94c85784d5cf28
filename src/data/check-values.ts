/**
 * The values a CHECK constraint of the form `col IN ('a', 'b', …)` allows a column, read from the
 * constraint's text: SQLite's CREATE TABLE as written, PostgreSQL's `pg_get_constraintdef`
 * (`CHECK ((col = ANY (ARRAY['a'::text, 'b'::text])))`). Any other check (a range, an OR, a
 * number list, a function) says nothing here. Pure.
 */
export interface InListCheck {
  readonly column: string;
  readonly values: readonly string[];
}

const stringLiteral = /^'((?:[^']|'')*)'(?:::[a-z_][a-z0-9_ "]*)?$/i;
const identifier = '"?([A-Za-z_][A-Za-z0-9_]*)"?';
const sqliteInList = new RegExp(`^${identifier}\\s+in\\s*\\((.*)\\)$`, 'is');
// PostgreSQL writes a varchar column as `(col)::text` and the array as `(ARRAY[…])::text[]`.
const postgresAnyArray = new RegExp(`^\\(?${identifier}\\)?(?:::[a-z ]+)?\\s*=\\s*ANY\\s*\\(\\(?ARRAY\\[([^\\]]*)\\]\\)?(?:::[a-z ]+\\[\\])?\\)$`, 'is');

/** Strips the parentheses that wrap the whole of `text`, as many pairs as there are. */
function unwrap(text: string): string {
  let body = text.trim();
  while (body.startsWith('(') && closingParen(body, 0) === body.length - 1) body = body.slice(1, -1).trim();
  return body;
}

/** The index of the parenthesis closing the one at `open`, skipping quoted text; -1 when unbalanced. */
function closingParen(text: string, open: number): number {
  let depth = 0;
  for (let index = open; index < text.length; index += 1) {
    const char = text[index];
    if (char === "'" || char === '"') {
      const end = text.indexOf(char, index + 1);
      if (end < 0) return -1;
      index = end;
    } else if (char === '(') depth += 1;
    else if (char === ')' && --depth === 0) return index;
  }
  return -1;
}

/** Items of a comma-separated list, each a string literal; undefined when any is not. */
function literals(list: string): string[] | undefined {
  const items: string[] = [];
  let start = 0;
  let quoted = false;
  for (let index = 0; index <= list.length; index += 1) {
    const char = list[index];
    if (char === "'") quoted = !quoted;
    else if ((char === ',' && !quoted) || index === list.length) {
      const match = stringLiteral.exec(list.slice(start, index).trim());
      if (match === null) return undefined;
      items.push(match[1]!.replace(/''/g, "'"));
      start = index + 1;
    }
  }
  return items.length === 0 ? undefined : items;
}

function inList(body: string, pattern: RegExp): InListCheck | undefined {
  const match = pattern.exec(unwrap(body));
  if (match === null) return undefined;
  const values = literals(match[2]!);
  return values === undefined ? undefined : { column: match[1]!, values };
}

/** Every `CHECK (col IN (…))` of a SQLite CREATE TABLE statement, on a column or on the table. */
export function sqliteInListChecks(createTable: string): InListCheck[] {
  const found: InListCheck[] = [];
  const keyword = /\bcheck\s*\(/gi;
  for (let match = keyword.exec(createTable); match !== null; match = keyword.exec(createTable)) {
    const open = match.index + match[0].length - 1;
    const close = closingParen(createTable, open);
    if (close < 0) break;
    const check = inList(createTable.slice(open + 1, close), sqliteInList);
    if (check !== undefined) found.push(check);
    keyword.lastIndex = close;
  }
  return found;
}

/** A PostgreSQL check constraint as `pg_get_constraintdef` writes it, when it is `col = ANY (ARRAY[…])`. */
export function postgresInListCheck(definition: string): InListCheck | undefined {
  const match = /^CHECK\s*(\(.*\))(?:\s+NOT VALID)?$/is.exec(definition.trim());
  return match === null ? undefined : inList(match[1]!, postgresAnyArray);
}

/** The allowed values per column, from a table's in-list checks; a column with two such checks keeps the values both allow. */
export function allowedValues(checks: readonly InListCheck[]): Map<string, readonly string[]> {
  const byColumn = new Map<string, readonly string[]>();
  for (const check of checks) {
    const before = byColumn.get(check.column);
    byColumn.set(check.column, before === undefined ? check.values : before.filter((value) => check.values.includes(value)));
  }
  return byColumn;
}
