import type { JsonValue } from '../core/index.js';
import { itemKinds } from '../store/index.js';
import type { ItemKind, ItemRecord, NewItem } from '../store/index.js';

/**
 * The shapes of item data the engine writes, and tolerant readers for them. Every item of a
 * model step carries the step (the turn's provider round) it came from.
 */
export interface ToolCallData {
  readonly callId: string;
  readonly name: string;
  /** The model's JSON text, verbatim. */
  readonly arguments: string;
  /** `read`, `write`, `irreversible`, or `unknown` for a tool the dispatcher does not know. */
  readonly effect: string;
  readonly step: number;
  /** For a call the router's tool check allowed: the check, so that its outcome can be recorded after a pause. */
  readonly checkId?: string;
  /** Opaque provider state that must go back with the call in later requests (Gemini's thought signature). */
  readonly providerData?: Readonly<Record<string, JsonValue>>;
}
export interface ToolResultData {
  readonly callId: string;
  readonly name: string;
  readonly result: JsonValue;
}
export interface ConfirmationRequestData {
  readonly confirmationId: string;
  readonly callId: string;
  readonly name: string;
  readonly arguments: JsonValue;
  readonly expiresAt: string;
  /** The sentence the person confirms (a write the router planned). */
  readonly message?: string;
}
export type ConfirmationOutcome = 'approved' | 'rejected' | 'expired' | 'cancelled';
export interface ConfirmationResolutionData {
  readonly confirmationId: string;
  readonly callId: string;
  readonly outcome: ConfirmationOutcome;
}

type Data = Readonly<Record<string, JsonValue>>;

function record(item: ItemRecord): Data {
  return item.data !== null && typeof item.data === 'object' && !Array.isArray(item.data) ? (item.data as Data) : {};
}
function text(value: JsonValue | undefined): string {
  return typeof value === 'string' ? value : '';
}
function num(value: JsonValue | undefined): number {
  return typeof value === 'number' ? value : 0;
}

export function itemText(item: ItemRecord): string {
  return text(record(item).text);
}
export function itemStep(item: ItemRecord): number {
  return num(record(item).step);
}
export function toolCallOf(item: ItemRecord): ToolCallData {
  const d = record(item);
  const providerData = d.providerData;
  return {
    callId: text(d.callId),
    name: text(d.name),
    arguments: text(d.arguments),
    effect: text(d.effect) || 'unknown',
    step: num(d.step),
    ...(typeof d.checkId === 'string' ? { checkId: d.checkId } : {}),
    ...(providerData !== null && typeof providerData === 'object' && !Array.isArray(providerData) ? { providerData: providerData as Readonly<Record<string, JsonValue>> } : {}),
  };
}
export function toolResultOf(item: ItemRecord): ToolResultData {
  const d = record(item);
  return { callId: text(d.callId), name: text(d.name), result: d.result ?? null };
}
export function confirmationRequestOf(item: ItemRecord): ConfirmationRequestData {
  const d = record(item);
  return {
    confirmationId: text(d.confirmationId),
    callId: text(d.callId),
    name: text(d.name),
    arguments: d.arguments ?? null,
    expiresAt: text(d.expiresAt),
    ...(typeof d.message === 'string' ? { message: d.message } : {}),
  };
}
export function confirmationResolutionOf(item: ItemRecord): ConfirmationResolutionData {
  const d = record(item);
  return { confirmationId: text(d.confirmationId), callId: text(d.callId), outcome: text(d.outcome) as ConfirmationOutcome };
}
export function errorOf(item: ItemRecord): { readonly code: string; readonly message: string } {
  const d = record(item);
  return { code: text(d.code), message: text(d.message) };
}
export function retryReason(item: ItemRecord): string {
  return text(record(item).reason);
}

/** What the router made of a turn, and what the engine did with it. */
export interface PlanItemData {
  /** The whole TurnPlan, as the router returned it. */
  readonly plan: JsonValue;
  /** `run`, `ask`, `declined`, `rephrase`, `refuse` (answered here) or `model` (deferred to the model loop). */
  readonly next: PlanNext;
}
export type PlanNext = 'run' | 'ask' | 'declined' | 'rephrase' | 'refuse' | 'model';

/**
 * The plan item's kind: `plan` where the store knows it, else a `retry_marker` whose reason is
 * `plan` (the store's kinds are a closed list; both read back the same).
 */
const planKind: ItemKind = (itemKinds as readonly string[]).includes('plan') ? ('plan' as ItemKind) : 'retry_marker';

export function isPlanItem(item: ItemRecord): boolean {
  return (item.kind as string) === 'plan' || (item.kind === 'retry_marker' && retryReason(item) === 'plan');
}
export function planItemOf(item: ItemRecord): PlanItemData {
  const d = record(item);
  return { plan: d.plan ?? null, next: (text(d.next) || 'run') as PlanNext };
}

export const newItems = {
  plan: (data: PlanItemData): NewItem => ({ kind: planKind, data: planKind === 'retry_marker' ? { reason: 'plan', ...data } : { ...data } }),
  /** Something the journal should say that is not a message (a router session replaced). */
  note: (data: Readonly<Record<string, JsonValue>>): NewItem => ({ kind: 'retry_marker', data: { reason: 'note', ...data } }),
  assistantText: (value: string, step: number): NewItem => ({ kind: 'assistant_text', data: { text: value, step } }),
  toolCall: (data: ToolCallData): NewItem => ({ kind: 'tool_call', data: { ...data } }),
  toolResult: (data: ToolResultData): NewItem => ({ kind: 'tool_result', data: { ...data } }),
  confirmationRequest: (data: ConfirmationRequestData): NewItem => ({ kind: 'confirmation_request', data: { ...data } }),
  confirmationResolution: (data: ConfirmationResolutionData): NewItem => ({ kind: 'confirmation_resolution', data: { ...data } }),
  error: (code: string, message: string): NewItem => ({ kind: 'error', data: { code, message } }),
  summary: (value: string, throughItemId: string): NewItem => ({ kind: 'summary', data: { text: value, throughItemId } }),
  retryMarker: (data: Readonly<Record<string, JsonValue>>): NewItem => ({ kind: 'retry_marker', data: { ...data } }),
};
