import type { JsonValue } from '../../core/index.js';
import { itemKinds } from '../../store/index.js';
import type { ItemKind, ItemRecord, NewItem } from '../../store/index.js';

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
  /** For a duplicate call, not run: the earlier identical call whose result it got (or that refused it, for a write). */
  readonly duplicateOf?: string;
  /**
   * A result larger than the tools' `maxResultBytes`: `result` is what the model and the client saw
   * (its first part and the handle, the item's id as `result_id`), `fullResult` the whole of it (up
   * to `maxStoredResultBytes`) for `read_result`, and `fullBytes` the size of its JSON text.
   */
  readonly fullResult?: JsonValue;
  readonly fullBytes?: number;
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

/** A question the turn put to the person (`question` item); `id` is `<turn id>.q…`. */
export interface QuestionData {
  readonly questionId: string;
  readonly text: string;
  readonly choices: readonly { readonly id: string; readonly label: string; readonly value: string; readonly description?: string }[];
  readonly freeText: boolean;
  readonly source: 'model' | 'tool' | 'router';
  readonly header?: string;
  /** A model's or a tool's question: the call it answers. */
  readonly callId?: string;
  readonly tool?: string;
  /** A router question: the asking plan's index in the session. */
  readonly planIndex?: number;
  /** What a tool found before it asked, given back to the model with the answer. */
  readonly result?: JsonValue;
}
/** How a question was answered (`answer` item): its text, and the choice taken, if one was. */
export interface AnswerData {
  readonly questionId: string;
  readonly text: string;
  readonly choice?: string;
  /** `answer`: through an answer (the route, the frame); `message`: the thread's next message replied to a router question; `cancelled`: the turn ended first. */
  readonly via: 'answer' | 'message' | 'cancelled';
}
/** Streamed text journaled while its round is still running (`text_draft`): what a client was shown. */
export interface DraftData {
  readonly text: string;
  readonly step: number;
}

type Data = Readonly<Record<string, JsonValue>>;

/** What a reader of an item's kind and data needs: a stored record, or an item about to be appended. */
export type ItemContent = Pick<ItemRecord, 'kind' | 'data'>;

function record(item: ItemContent): Data {
  return item.data !== null && typeof item.data === 'object' && !Array.isArray(item.data) ? (item.data as Data) : {};
}
function text(value: JsonValue | undefined): string {
  return typeof value === 'string' ? value : '';
}
function num(value: JsonValue | undefined): number {
  return typeof value === 'number' ? value : 0;
}

export function itemText(item: ItemContent): string {
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
  return {
    callId: text(d.callId),
    name: text(d.name),
    result: d.result ?? null,
    ...(typeof d.duplicateOf === 'string' ? { duplicateOf: d.duplicateOf } : {}),
    ...(typeof d.fullBytes === 'number' ? { fullBytes: d.fullBytes } : {}),
  };
}

/** The whole result a cut tool result keeps for `read_result`; undefined when the item has none. */
export function storedResultOf(item: ItemRecord): JsonValue | undefined {
  return item.kind === 'tool_result' ? record(item).fullResult : undefined;
}

/**
 * The item without the whole result a cut tool result keeps: what a run holds in memory (and the
 * engine keeps between turns), since only `read_result` needs it and reads it from the store.
 */
export function withoutStoredResult(item: ItemRecord): ItemRecord {
  if (item.kind !== 'tool_result') return item;
  const d = record(item);
  if (d.fullResult === undefined) return item;
  const { fullResult: _kept, ...rest } = d;
  return { ...item, data: rest };
}

/** How an answer's text ended: cut at the length limit (`truncated`), and whether it continues the text before it. */
export function textMarks(item: ItemContent): { readonly truncated: boolean; readonly continuation: boolean } {
  const d = record(item);
  return { truncated: d.truncated === true, continuation: d.continuation === true };
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
export function retryReason(item: ItemContent): string {
  return text(record(item).reason);
}

export function questionOf(item: ItemRecord): QuestionData {
  const d = record(item);
  const choices = Array.isArray(d.choices) ? d.choices : [];
  const source = text(d.source);
  return {
    questionId: text(d.questionId),
    text: text(d.text),
    choices: choices.flatMap((choice) => {
      if (choice === null || typeof choice !== 'object' || Array.isArray(choice)) return [];
      const c = choice as Data;
      return [{ id: text(c.id), label: text(c.label), value: text(c.value), ...(typeof c.description === 'string' ? { description: c.description } : {}) }];
    }),
    freeText: d.freeText !== false,
    source: source === 'router' || source === 'tool' ? source : 'model',
    ...(typeof d.header === 'string' ? { header: d.header } : {}),
    ...(typeof d.callId === 'string' ? { callId: d.callId } : {}),
    ...(typeof d.tool === 'string' ? { tool: d.tool } : {}),
    ...(typeof d.planIndex === 'number' ? { planIndex: d.planIndex } : {}),
    ...(d.result === undefined ? {} : { result: d.result }),
  };
}
export function answerOf(item: ItemRecord): AnswerData {
  const d = record(item);
  const via = text(d.via);
  return { questionId: text(d.questionId), text: text(d.text), ...(typeof d.choice === 'string' ? { choice: d.choice } : {}), via: via === 'message' || via === 'cancelled' ? via : 'answer' };
}
export function draftOf(item: ItemRecord): DraftData {
  const d = record(item);
  return { text: text(d.text), step: num(d.step) };
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

export function isPlanItem(item: ItemContent): boolean {
  return (item.kind as string) === 'plan' || (item.kind === 'retry_marker' && retryReason(item) === 'plan');
}
export function planItemOf(item: ItemContent): PlanItemData {
  const d = record(item);
  return { plan: d.plan ?? null, next: (text(d.next) || 'run') as PlanNext };
}

export const newItems = {
  plan: (data: PlanItemData): NewItem => ({ kind: planKind, data: planKind === 'retry_marker' ? { reason: 'plan', ...data } : { ...data } }),
  /** Something the journal should say that is not a message (a router session replaced). */
  note: (data: Readonly<Record<string, JsonValue>>): NewItem => ({ kind: 'retry_marker', data: { reason: 'note', ...data } }),
  assistantText: (value: string, step: number, provenance?: readonly JsonValue[]): NewItem => ({
    kind: 'assistant_text',
    data: provenance === undefined ? { text: value, step } : { text: value, step, provenance: [...provenance] },
  }),
  /** A model's text that was cut at the length limit (`truncated`), or that continues such a text (`continuation`). */
  markedText: (value: string, step: number, marks: { readonly truncated?: boolean; readonly continuation?: boolean }): NewItem => ({
    kind: 'assistant_text',
    data: { text: value, step, ...(marks.truncated === true ? { truncated: true } : {}), ...(marks.continuation === true ? { continuation: true } : {}) },
  }),
  toolCall: (data: ToolCallData): NewItem => ({ kind: 'tool_call', data: { ...data } }),
  toolResult: (data: ToolResultData): NewItem => ({ kind: 'tool_result', data: { ...data } }),
  confirmationRequest: (data: ConfirmationRequestData): NewItem => ({ kind: 'confirmation_request', data: { ...data } }),
  confirmationResolution: (data: ConfirmationResolutionData): NewItem => ({ kind: 'confirmation_resolution', data: { ...data } }),
  error: (code: string, message: string): NewItem => ({ kind: 'error', data: { code, message } }),
  summary: (value: string, throughItemId: string): NewItem => ({ kind: 'summary', data: { text: value, throughItemId } }),
  retryMarker: (data: Readonly<Record<string, JsonValue>>): NewItem => ({ kind: 'retry_marker', data: { ...data } }),
  /** A question's item has the question's id, so that its id is unique in the thread. */
  question: (data: QuestionData): NewItem => ({ id: data.questionId, kind: 'question', data: { ...data, choices: data.choices.map((choice) => ({ ...choice })) } }),
  /** One answer per question: its item's id is the question's with `.a`, which the store refuses twice. */
  answer: (data: AnswerData): NewItem => ({ id: `${data.questionId}.a`, kind: 'answer', data: { ...data } }),
  draft: (data: DraftData): NewItem => ({ kind: 'text_draft', data: { ...data } }),
};
