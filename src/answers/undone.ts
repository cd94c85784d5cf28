/** Telling a write that did not happen (or waits) and a tool error from an ordinary result that merely has a `status` field. */
import type { JsonValue } from '../core/index.js';
import { isRecord } from './labels.js';

const UNDONE = ['cancelled', 'rejected', 'expired', 'confirmation_required'];
/**
 * The keys the dispatcher's cancellation and confirmation results carry; a record with others is data
 * (an order whose status is 'cancelled', what a `cancel_order` write answers).
 */
const GATE_KEYS = new Set(['status', 'reason', 'message', 'confirmation_id', 'tool', 'arguments', 'expires_at', 'warning']);

export function isToolFailure(result: JsonValue): boolean {
  return isRecord(result) && isRecord(result['error']) && typeof result['error']['message'] === 'string';
}

/** The status of a write that was rejected, expired, cancelled or is waiting; null for anything else. */
export function undoneStatus(result: JsonValue): string | null {
  if (!isRecord(result)) return null;
  const status = result['status'];
  if (typeof status !== 'string' || !UNDONE.includes(status)) return null;
  return Object.keys(result).every((k) => GATE_KEYS.has(k)) ? status : null;
}
