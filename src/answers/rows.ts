/**
 * Rows as a short list (a few) or a compact Markdown table (more), cut at a bound with how many more
 * there are. Each row leads with what it is called (its name or title, else its id); labels are the
 * fields' words in the answer's language; every value carries the row and field it came from.
 */
import type { JsonValue } from '../core/index.js';
import { displayFieldOf } from '../core/index.js';
import type { Context } from './context.js';
import { fieldLabel, isRecord } from './labels.js';
import { capitalize, thingOf } from './nouns.js';
import { cell, shown } from './values.js';
import type { Source, Written } from './written.js';
import { join, value, written } from './written.js';

/** Rows written as a list up to this many; more become a table. */
export const MAX_LIST_ROWS = 5;
/** Rows written at most; the rest are counted ("… and N more"). */
export const MAX_ROWS = 20;

/** The field a row is called by, and the field that identifies it. */
export function namesOf(tool: string, rows: readonly JsonValue[]): { title: string | null; identity: string | null } {
  const records = rows.filter(isRecord);
  const has = (key: string): boolean => records.length > 0 && records.some((r) => r[key] !== undefined);
  const thing = thingOf(tool).replace(/ /g, '_');
  const identity = ['id', `${thing}_id`, `${thing}Id`, `${thing}_number`].find(has) ?? null;
  const title = displayFieldOf((key) => records.length > 0 && records.every((r) => typeof r[key] === 'string'));
  return { title, identity };
}

/** The source of a row's field. */
export function sourceOf(step: number, tool: string, row: number | null, record: Readonly<Record<string, JsonValue>>, identity: string | null, field: string): Source {
  return { step, tool, row, id: identity === null ? null : (record[identity] ?? null), field };
}

/** The keys of rows in the order the results have them. */
function columnsOf(rows: readonly JsonValue[]): string[] {
  const seen = new Set<string>();
  for (const row of rows) if (isRecord(row)) for (const key of Object.keys(row)) seen.add(key);
  return [...seen];
}

/** The rows (at most MAX_ROWS of them) as lines: a list for a few, a table for more. */
export function rowLines(ctx: Context, step: number, tool: string, rows: readonly JsonValue[]): Written[] {
  const shownRows = rows.slice(0, MAX_ROWS);
  const { title, identity } = namesOf(tool, shownRows);
  const lead = title ?? identity;
  const columns = columnsOf(shownRows);
  const rest = columns.filter((c) => c !== lead && !(title !== null && c === identity));
  if (shownRows.length <= MAX_LIST_ROWS || !shownRows.every(isRecord)) {
    return shownRows.map((row, i) => listItem(ctx, step, tool, row, i, lead, identity, rest));
  }
  const header = [lead, ...rest].filter((c): c is string => c !== null);
  const lines: Written[] = [written(`| ${header.map((c) => cell(capitalize(fieldLabel(ctx, tool, c)))).join(' | ')} |`), written(`| ${header.map(() => '---').join(' | ')} |`)];
  shownRows.forEach((row, i) => {
    const record = row;
    const cells = header.map((c) => value(cell(shown(ctx, tool, c, record[c])), record[c] === undefined || record[c] === null ? null : sourceOf(step, tool, i, record, identity, c)));
    lines.push(written('| ', join(cells, ' | '), ' |'));
  });
  return lines;
}

function listItem(ctx: Context, step: number, tool: string, row: JsonValue, index: number, lead: string | null, identity: string | null, rest: readonly string[]): Written {
  if (!isRecord(row)) return written('- ', value(shown(ctx, tool, 'value', row), { step, tool, row: index, id: null, field: 'value' }));
  const pairs = rest
    // An empty field says nothing about the row: a list leaves it out (a table shows it as "—").
    .filter((key) => row[key] !== undefined && row[key] !== null)
    .map((key) => written(`${fieldLabel(ctx, tool, key)}: `, value(shown(ctx, tool, key, row[key]), row[key] === null ? null : sourceOf(step, tool, index, row, identity, key))));
  const head = lead !== null && row[lead] !== undefined ? value(shown(ctx, tool, lead, row[lead]), sourceOf(step, tool, index, row, identity, lead)) : null;
  if (head === null) return written('- ', join(pairs, ', '));
  return pairs.length === 0 ? written('- ', head) : written('- ', head, ' — ', join(pairs, ', '));
}
