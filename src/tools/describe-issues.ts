import type { z } from 'zod';
import type { JsonObject } from '../core/index.js';

/** A zod path as a JSON path: `$.fields[0].name`. */
export function jsonPath(path: readonly PropertyKey[]): string {
  let out = '$';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else if (typeof key === 'string' && /^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) out += `.${key}`;
    else out += `[${JSON.stringify(String(key))}]`;
  }
  return out;
}

/** Validation issues as data for `invalid_arguments`: where, what was expected, and one line. */
export function describeIssues(issues: readonly z.core.$ZodIssue[]): { summary: string; issues: JsonObject[] } {
  const described: { [key: string]: string }[] = issues.slice(0, 20).map((issue) => {
    const path = jsonPath(issue.path);
    let message = issue.message;
    if (issue.code === 'unrecognized_keys') {
      message = `Unknown key${issue.keys.length === 1 ? '' : 's'} ${issue.keys.map((key) => `'${key}'`).join(', ')}`;
    }
    const entry: { [key: string]: string } = { path, code: issue.code, message };
    if ('expected' in issue && typeof issue.expected === 'string') entry.expected = issue.expected;
    if (issue.code === 'invalid_union') {
      const expected = [...new Set(issue.errors.flatMap((branch) => branch.flatMap((inner) => ('expected' in inner && typeof inner.expected === 'string' ? [inner.expected] : []))))];
      if (expected.length > 0) {
        entry.expected = expected.join(' or ');
        entry.message = `Invalid input: expected ${entry.expected}`;
      }
    }
    return entry;
  });
  const summary = described.map((entry) => `${entry.path ?? '$'}: ${entry.message ?? ''}`).join('; ');
  return { summary: `${summary}${issues.length > 20 ? `; and ${issues.length - 20} more` : ''}.`, issues: described };
}
