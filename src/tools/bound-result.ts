import type { JsonValue } from '../core/index.js';

export interface BoundedResult {
  readonly value: JsonValue;
  readonly truncated: boolean;
}

function byteLength(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/**
 * Copies a handler's value as JSON and keeps it within `maxBytes` of UTF-8 JSON text. A result
 * that is too large loses trailing items of its longest array, then long strings are cut; an
 * object result gains `truncated: true`, an array result becomes `{ data, truncated: true }`.
 * Throws when the value has no JSON form (a BigInt, a cycle).
 */
export function boundResult(value: unknown, maxBytes: number): BoundedResult {
  const text = JSON.stringify(value);
  if (text === undefined) return { value: null, truncated: false };
  // Every UTF-16 unit is at most 3 UTF-8 bytes: skip the count when it cannot matter.
  if (text.length * 3 <= maxBytes || byteLength(text) <= maxBytes) {
    return { value: JSON.parse(text) as JsonValue, truncated: false };
  }
  const copy = JSON.parse(text) as JsonValue;
  const budget = Math.max(0, maxBytes - 64);
  let wrapped: { [key: string]: JsonValue } =
    copy !== null && typeof copy === 'object' && !Array.isArray(copy) ? (copy as { [key: string]: JsonValue }) : { data: copy };
  wrapped = { ...wrapped, truncated: true };
  shrinkArrays(wrapped, budget);
  if (byteLength(JSON.stringify(wrapped)) > budget) cutStrings(wrapped, budget);
  if (byteLength(JSON.stringify(wrapped)) > maxBytes) {
    const preview = text.slice(0, Math.max(0, Math.floor(budget / 3)));
    return { value: { truncated: true, preview }, truncated: true };
  }
  return { value: wrapped, truncated: true };
}

function arrays(node: JsonValue, found: JsonValue[][]): JsonValue[][] {
  if (Array.isArray(node)) {
    found.push(node as JsonValue[]);
    for (const item of node as JsonValue[]) arrays(item, found);
  } else if (node !== null && typeof node === 'object') {
    for (const value of Object.values(node)) arrays(value, found);
  }
  return found;
}

function shrinkArrays(root: JsonValue, budget: number): void {
  for (let round = 0; round < 64; round++) {
    const size = byteLength(JSON.stringify(root));
    if (size <= budget) return;
    const candidates = arrays(root, []).filter((list) => list.length > 0);
    if (candidates.length === 0) return;
    let longest = candidates[0] as JsonValue[];
    let longestSize = 0;
    for (const list of candidates) {
      const listSize = JSON.stringify(list).length;
      if (listSize > longestSize) {
        longest = list;
        longestSize = listSize;
      }
    }
    const keep = Math.floor((longest.length * Math.max(0, budget - (size - longestSize))) / size);
    longest.length = Math.min(longest.length - 1, Math.max(0, keep));
  }
}

function cutStrings(node: JsonValue, budget: number): void {
  const limit = Math.max(16, Math.floor(budget / 8));
  const visit = (value: JsonValue): JsonValue => {
    if (typeof value === 'string') return value.length > limit ? `${value.slice(0, limit)}…` : value;
    if (Array.isArray(value)) {
      const list = value as JsonValue[];
      for (let i = 0; i < list.length; i++) list[i] = visit(list[i] as JsonValue);
      return list;
    }
    if (value !== null && typeof value === 'object') {
      const record = value as { [key: string]: JsonValue };
      for (const key of Object.keys(record)) record[key] = visit(record[key] as JsonValue);
    }
    return value;
  };
  visit(node);
}
