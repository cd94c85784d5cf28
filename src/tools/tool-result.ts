import type { JsonObject, JsonValue } from '../core/index.js';
import type { ToolErrorCode } from './errors.js';

export interface ToolErrorBody {
  readonly code: ToolErrorCode;
  readonly message: string;
  readonly details?: JsonObject;
}

/** A failure, as data: what every dispatcher error path answers. */
export interface ToolErrorResult {
  readonly error: ToolErrorBody;
}

/** The gate held the call back; approve or reject it with `dispatcher.confirm(confirmation_id, …)`. */
export interface ConfirmationRequiredResult {
  readonly status: 'confirmation_required';
  readonly confirmation_id: string;
  readonly tool: string;
  readonly arguments: JsonObject;
  readonly expires_at: string;
}

export interface CancelledResult {
  readonly status: 'cancelled';
  readonly reason: 'user_rejected' | 'confirmation_timed_out';
}

/**
 * What a dispatched call answers: the tool's own JSON value (an object result carries
 * `truncated: true` when it was cut to `maxResultBytes`), a confirmation request, a cancellation,
 * or an error. Use the guards below to tell them apart.
 */
export type ToolResult = JsonValue | ToolErrorResult | ConfirmationRequiredResult | CancelledResult;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isToolError(result: unknown): result is ToolErrorResult {
  return isRecord(result) && isRecord(result.error) && typeof result.error.code === 'string' && Object.keys(result).length === 1;
}

export function isConfirmationRequired(result: unknown): result is ConfirmationRequiredResult {
  return isRecord(result) && result.status === 'confirmation_required' && typeof result.confirmation_id === 'string';
}

export function isCancelled(result: unknown): result is CancelledResult {
  return isRecord(result) && result.status === 'cancelled' && typeof result.reason === 'string';
}

export function errorResult(code: ToolErrorCode, message: string, details?: JsonObject): ToolErrorResult {
  return { error: details === undefined ? { code, message } : { code, message, details } };
}
