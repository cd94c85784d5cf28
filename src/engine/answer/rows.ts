/** Rows as a short list (a few) or a compact Markdown table (more), cut at a bound with how many more there are. */
import type { JsonValue } from '../../core/index.js';
import { cell, compact, isRecord } from './values.js';

/** Rows written as a list up to this many; more become a table. */
export const MAX_LIST_ROWS = 5;
/** Rows written at most; the rest are counted ("… and N more"). */
export const MAX_ROWS = 20;

/** The row's keys in the order the result has them, `id` first. */
function columnsOf(rows: readonly JsonValue[]): string[] {
  const seen = new Set<string>();
  for (const row of rows) if (isRecord(row)) for (const key of Object.keys(row)) seen.add(key);
  const columns = [...seen];
  const id = columns.indexOf('id');
  if (id > 0) columns.unshift(...columns.splice(id, 1));
  return columns;
}

function listItem(row: JsonValue): string {
  if (!isRecord(row)) return `- ${compact(row)}`;
  const keys = columnsOf([row]);
  return `- ${keys.map((k) => `${k}: ${compact(row[k], 1)}`).join(', ')}`;
}

/** The rows (at most MAX_ROWS of them) as lines: a list for a few, a table for more. */
export function rowLines(rows: readonly JsonValue[]): string[] {
  const shown = rows.slice(0, MAX_ROWS);
  if (shown.length <= MAX_LIST_ROWS || !shown.every(isRecord)) return shown.map(listItem);
  const columns = columnsOf(shown);
  const lines = [`| ${columns.join(' | ')} |`, `| ${columns.map(() => '---').join(' | ')} |`];
  for (const row of shown) lines.push(`| ${columns.map((c) => cell(isRecord(row) ? row[c] : row)).join(' | ')} |`);
  return lines;
}
