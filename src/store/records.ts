import { PlumbError } from '../core/index.js';
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

export function closedError(): PlumbError {
  return new PlumbError('store_closed', 'The store is closed. Open a new store to continue.');
}
