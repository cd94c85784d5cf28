import { canonicalJson, PlumbError } from '../core/index.js';
import type { JsonValue } from '../core/index.js';
import { itemKinds, turnStatuses } from './types.js';
import type { ItemKind, NewItem, TurnStatus } from './types.js';

/** Checks shared by every implementation, so that they reject the same malformed input. */

/** Checks an item and returns its data as JSON text. */
export function checkItem(item: NewItem): string {
  if (!(itemKinds as readonly string[]).includes(item.kind)) {
    throw new PlumbError('store_invalid_record', `Unknown item kind '${String(item.kind)}'. Kinds: ${itemKinds.join(', ')}.`);
  }
  return jsonText(item.data, `item of kind '${item.kind}'`);
}

export function checkStatus(status: TurnStatus): void {
  if (!(turnStatuses as readonly string[]).includes(status)) {
    throw new PlumbError('store_invalid_record', `Unknown turn status '${String(status)}'. Statuses: ${turnStatuses.join(', ')}.`);
  }
}

/** JSON text of a value, or `store_invalid_record` naming what held it. */
export function jsonText(value: JsonValue, what: string): string {
  try {
    return canonicalJson(value);
  } catch (cause) {
    throw new PlumbError('store_invalid_record', `The data of ${what} is not JSON (a function, undefined, a cycle or a BigInt?).`, { cause });
  }
}

export function isItemKind(value: string): value is ItemKind {
  return (itemKinds as readonly string[]).includes(value);
}

export function notFound(what: string, id: string): PlumbError {
  return new PlumbError('store_not_found', `No ${what} with id '${id}'.`);
}

export function closedError(): PlumbError {
  return new PlumbError('store_closed', 'The store is closed. Open a new store to continue.');
}
