import { PlumbError } from '../core/index.js';
import type { JsonValue } from '../core/index.js';
import { activeTurnStatuses, defaultRetentionLimit, itemKinds, turnStatuses } from './types.js';
import type { ItemKind, NewItem, RetentionOptions, TurnStatus } from './types.js';

/** Checks shared by every implementation, so that they reject the same malformed input. */

/** Checks an item and returns its data as JSON text. */
export function checkItem(item: NewItem): string {
  checkKind(item);
  return jsonText(item.data, `item of kind '${item.kind}'`);
}

export function checkStatus(status: TurnStatus): void {
  if (!(turnStatuses as readonly string[]).includes(status)) {
    throw new PlumbError('store_invalid_record', `Unknown turn status '${String(status)}'. Statuses: ${turnStatuses.join(', ')}.`);
  }
}

/**
 * JSON text of a value, or `store_invalid_record` naming what held it. Plain `JSON.stringify`
 * (the journal needs no canonical form, and this is the store's hot path); a value with no JSON
 * text at all (undefined, a function) is refused rather than silently dropped.
 */
export function jsonText(value: JsonValue, what: string): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (cause) {
    throw new PlumbError('store_invalid_record', `The data of ${what} is not JSON (a cycle or a BigInt?).`, { cause });
  }
  if (typeof text !== 'string') throw new PlumbError('store_invalid_record', `The data of ${what} has no JSON text (undefined or a function?).`);
  return text;
}

export function isItemKind(value: string): value is ItemKind {
  return (itemKinds as readonly string[]).includes(value);
}

export function notFound(what: string, id: string): PlumbError {
  return new PlumbError('store_not_found', `No ${what} with id '${id}'.`);
}

/** A record whose id is taken; `cause` is the database's refusal, where one gave it. */
export function alreadyExists(what: string, id: string, cause?: unknown): PlumbError {
  return new PlumbError('store_invalid_record', `A ${what} with id '${id}' already exists.`, { cause });
}

/** The fields of a patch that are given (a field set to undefined is absent). */
export function definedOnly<T extends object>(patch: T): Partial<T> {
  const out: Partial<T> = {};
  for (const key of Object.keys(patch) as (keyof T)[]) if (patch[key] !== undefined) out[key] = patch[key];
  return out;
}

/** `record`, or `store_not_found` for the `what` with that id. */
export function found<T>(record: T | undefined, what: string, id: string): T {
  if (record === undefined) throw notFound(what, id);
  return record;
}

export function closedError(): PlumbError {
  return new PlumbError('store_closed', 'The store is closed. Open a new store to continue.');
}

/** A lease's time to live: a positive number of milliseconds. */
export function checkLeaseTtl(ttlMs: number): void {
  if (!Number.isFinite(ttlMs) || ttlMs <= 0) throw new PlumbError('store_invalid_record', `A lease's ttlMs must be a positive number of milliseconds; got ${String(ttlMs)}.`);
}

/** The `limit` of a retention call: a positive integer, `defaultRetentionLimit` when absent. */
export function retentionLimit(options: RetentionOptions | undefined): number {
  const limit = options?.limit ?? defaultRetentionLimit;
  if (!Number.isInteger(limit) || limit < 1) {
    throw new PlumbError('store_invalid_record', `A retention limit must be a positive integer; got ${String(limit)}.`);
  }
  return limit;
}

/**
 * A deep copy of `value` as JSON would make it (`JSON.parse(JSON.stringify(value))`), without
 * the text in between: the memory store's hot path copies every item it keeps. Plain objects,
 * arrays and primitives are copied here; anything else (a Date, a class instance, a boxed
 * value, a `__proto__` key, a very deep or cyclic value) takes the JSON round trip, so the
 * result and the refusals are exactly JSON's.
 */
export function jsonCopy(value: JsonValue, what: string): JsonValue {
  const copied = copyValue(value, 0, what);
  if (copied === undefined) throw new PlumbError('store_invalid_record', `The data of ${what} has no JSON text (undefined or a function?).`);
  return copied;
}

const maxCopyDepth = 64;

function copyValue(value: unknown, depth: number, what: string): JsonValue | undefined {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) ? value : null;
    case 'bigint':
      throw new PlumbError('store_invalid_record', `The data of ${what} is not JSON (a cycle or a BigInt?).`);
    case 'object': {
      if (value === null) return null;
      const proto = Object.getPrototypeOf(value) as unknown;
      if (depth >= maxCopyDepth) return roundTrip(value, what);
      if (Array.isArray(value)) {
        if (proto !== Array.prototype) return roundTrip(value, what);
        const out = new Array<JsonValue>(value.length);
        for (let i = 0; i < value.length; i++) out[i] = copyValue(value[i], depth + 1, what) ?? null;
        return out;
      }
      if (proto !== Object.prototype && proto !== null) return roundTrip(value, what);
      const source = value as Record<string, unknown>;
      if (typeof source.toJSON === 'function' || Object.hasOwn(source, '__proto__')) return roundTrip(value, what);
      const out: Record<string, JsonValue> = {};
      for (const key of Object.keys(source)) {
        const copied = copyValue(source[key], depth + 1, what);
        if (copied !== undefined) out[key] = copied;
      }
      return out;
    }
    default:
      return undefined;
  }
}

function roundTrip(value: unknown, what: string): JsonValue | undefined {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (cause) {
    throw new PlumbError('store_invalid_record', `The data of ${what} is not JSON (a cycle or a BigInt?).`, { cause });
  }
  return text === undefined ? undefined : (JSON.parse(text) as JsonValue);
}

/** Checks an item's kind (the memory store copies its data with `jsonCopy` instead of keeping text). */
export function checkKind(item: NewItem): void {
  if (!(itemKinds as readonly string[]).includes(item.kind)) {
    throw new PlumbError('store_invalid_record', `Unknown item kind '${String(item.kind)}'. Kinds: ${itemKinds.join(', ')}.`);
  }
}

/**
 * A fenced write's check (docs/store.md, "Leases"), inside its transaction: the turn is still
 * active under `lease`, else the write fails with `lease_lost` and nothing of it is kept.
 */
export function checkFence(turnId: string, lease: string | undefined, turnLease: string | null, status: string): void {
  if (lease === undefined || (turnLease === lease && (activeTurnStatuses as readonly string[]).includes(status))) return;
  throw new PlumbError('lease_lost', `Turn '${turnId}' no longer runs under lease '${lease}': another engine recovered it or took it over, and nothing of this write was kept.`);
}
