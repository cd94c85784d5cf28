import { PlumbError } from '../../core/index.js';
import type { JsonValue } from '../../core/index.js';
import type { ItemRecord, Store, ThreadCursor, ThreadRecord, TurnRecord } from '../../store/index.js';
import { activeTurnStatuses } from '../../store/index.js';
import type { TurnPlan } from '../../router/index.js';
import type { ConfirmMutationEvent, ItemContent, QuestionEvent, RunPhase, StopRequest } from '../shared/index.js';
import { RunReader, holdsQueue, runIdOf, runNumberAt, stopRequestOf, withoutSuperseded } from '../shared/index.js';
import { confirmationRequestOf, confirmationResolutionOf, isPlanItem, itemStep, itemText, planItemOf, retryReason, textMarks } from '../shared/index.js';
import { questionEvent, unansweredQuestions } from './questions.js';
import { withRunIds } from './run-ids.js';
import { turnProjection } from './turn-projection.js';
import type { TurnProjection } from './turn-projection.js';
import type { RunItem } from './run-ids.js';
import { planEventOf } from '../shared/index.js';
import { describeMutation } from '../shared/index.js';

/**
 * The threads as a person manages them (docs/engine.md, "Threads"): pages of threads and items,
 * search, titles, forks, and the current state of one thread for a live view. Pure reads and
 * single store calls; the engine checks the owner before any of them.
 */

/** Items a page holds at most, and bytes of item data (a larger item comes alone). */
export const maxPageItems = 150;
export const maxPageBytes = 512 * 1024;
/** Threads a page holds at most. */
export const maxThreadPage = 100;
/** The longest title a person may give, in characters; a generated one is cut to `generatedTitleLength`. */
export const maxTitleLength = 200;
const generatedTitleLength = 80;

export interface ThreadPageRequest {
  /** The previous page's `next`. */
  readonly cursor?: string;
  /** Default and at most 100. */
  readonly limit?: number;
  /** Only threads whose title or messages contain this text, ignoring case. */
  readonly search?: string;
}

export interface ThreadPageView {
  readonly threads: readonly ThreadRecord[];
  /** Pass as `cursor` for the next page; null on the last one. */
  readonly next: string | null;
}

export interface ItemPageRequest {
  /** The items after this ordinal (0: from the first). */
  readonly after?: number;
  /** Without `after`: the newest items before this ordinal (absent too: the thread's newest). */
  readonly before?: number;
  /** Default and at most 150. */
  readonly limit?: number;
}

export interface ItemPageView {
  /** Each with its run (`runId`, docs/protocol.md, "Runs"). */
  readonly items: readonly RunItem[];
  /** The ordinal to page on from, in the same direction (`after` forwards, `before` backwards); null at the thread's end (or start). */
  readonly next: number | null;
}

/** A message sent while the thread was busy, as a view shows it (`position` from 1 at the head). */
export interface QueuedView {
  readonly id: string;
  readonly text: string;
  readonly position: number;
  readonly steer: boolean;
}

/**
 * A thread as it is now, for a live view: the latest turn (running, waiting, or how the last one
 * ended, `stopping` once a person asked it to stop), the text its running round has shown so far, the write waiting for a confirmation, the
 * open question, the queue. `ordinal` is the journal position it was read at: a view's events
 * continue after it.
 */
export interface ThreadState {
  readonly thread: ThreadRecord;
  readonly ordinal: number;
  readonly turn: TurnRecord | null;
  /** The latest turn's current run (`<turn id>.r<n>`); null without a turn. */
  readonly runId: string | null;
  /** What that run is doing, as the journal tells it (docs/protocol.md, "Run phase"); null without a turn. */
  readonly phase: RunPhase | null;
  /** The latest turn's outcome, times and answer items (docs/protocol.md, "Turn projections"); null without a turn. */
  readonly projection: TurnProjection | null;
  readonly text: string;
  readonly confirmation: Omit<ConfirmMutationEvent, 'type' | 'thread_id' | 'turn_id'> | null;
  readonly question: Omit<QuestionEvent, 'type' | 'thread_id' | 'turn_id'> | null;
  readonly queue: readonly QueuedView[];
  /** A person asked the active turn to stop and it has not ended yet (journaled: it survives a restart until recovery ends the turn). */
  readonly stopping: StopRequest | null;
  /** The latest turn ended by a person's stop: nothing in the queue runs until they send one now (or remove it). */
  readonly queueHeld: boolean;
}

export function encodeThreadCursor(cursor: ThreadCursor): string {
  return Buffer.from(JSON.stringify([cursor.updatedAt, cursor.createdAt, cursor.id])).toString('base64url');
}

export function decodeThreadCursor(text: string): ThreadCursor {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    parsed = undefined;
  }
  if (!Array.isArray(parsed) || parsed.length !== 3 || typeof parsed[0] !== 'number' || typeof parsed[1] !== 'number' || typeof parsed[2] !== 'string') {
    throw new PlumbError('bad_cursor', 'This cursor is not one a page of threads gave. Start from the first page.');
  }
  return { updatedAt: parsed[0], createdAt: parsed[1], id: parsed[2] };
}

function pageLimit(given: number | undefined, ceiling: number): number {
  if (given === undefined) return ceiling;
  if (!Number.isInteger(given) || given < 1) throw new PlumbError('bad_cursor', `A page's limit is a whole number from 1 to ${ceiling}.`);
  return Math.min(given, ceiling);
}

export async function pageThreads(store: Store, owner: string, request: ThreadPageRequest): Promise<ThreadPageView> {
  const search = request.search?.trim();
  const page = await store.pageThreads(owner, {
    limit: pageLimit(request.limit, maxThreadPage),
    ...(request.cursor === undefined || request.cursor === '' ? {} : { after: decodeThreadCursor(request.cursor) }),
    ...(search === undefined || search === '' ? {} : { search }),
  });
  return { threads: page.threads, next: page.next === null ? null : encodeThreadCursor(page.next) };
}

export async function pageItems(store: Store, thread: ThreadRecord, request: ItemPageRequest): Promise<ItemPageView> {
  const limit = pageLimit(request.limit, maxPageItems);
  for (const [name, value] of [['after', request.after], ['before', request.before]] as const) {
    if (value !== undefined && (!Number.isInteger(value) || value < 0)) throw new PlumbError('bad_cursor', `'${name}' is an item ordinal: a whole number, 0 or more.`);
  }
  if (request.after !== undefined) {
    const page = await store.pageItems(thread.id, { after: request.after, limit, maxBytes: maxPageBytes });
    return { items: await withRunIds(store, page.items), next: page.more ? page.items[page.items.length - 1]!.ordinal : null };
  }
  const before = request.before ?? (await store.lastOrdinal(thread.id)) + 1;
  const page = await store.pageItems(thread.id, { before, limit, maxBytes: maxPageBytes });
  return { items: await withRunIds(store, page.items), next: page.more ? page.items[0]!.ordinal : null };
}

/** A person's title: trimmed, one line, 1–200 characters. */
export function personTitle(title: unknown): string {
  const text = typeof title === 'string' ? title.replace(/\s+/g, ' ').trim() : '';
  if (text === '' || text.length > maxTitleLength) throw new PlumbError('bad_title', `A title is text of 1 to ${maxTitleLength} characters.`);
  return text;
}

/** `material__name` → `material name`; `orderId` → `order id`. */
function words(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/_+/g, ' ')
    .trim()
    .toLowerCase();
}

/** Arguments that say what a read is for, as words: filters and identities, not fields, limits or order. */
const structural = new Set(['fields', 'limit', 'offset', 'page', 'page_size', 'pageSize', 'order', 'order_by', 'orderBy', 'sort', 'exclude']);
function argumentWords(value: JsonValue, key = ''): string[] {
  if (value === null || value === undefined) return [];
  if (Array.isArray(value)) return value.length === 0 ? [] : [`${key === '' ? '' : `${words(key)} `}${value.map((entry) => (typeof entry === 'object' ? JSON.stringify(entry) : String(entry))).join(', ')}`];
  if (typeof value === 'object') {
    return Object.entries(value).flatMap(([name, entry]) => (structural.has(name) ? [] : argumentWords(entry, name === 'filters' || name === 'filter' || name === 'input' ? key : name)));
  }
  return [`${key === '' ? '' : `${words(key)} `}${String(value)}`.trim()];
}

function cut(text: string, length: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  if (line.length <= length) return line;
  const head = line.slice(0, length - 1);
  const space = head.lastIndexOf(' ');
  return `${(space > length / 2 ? head.slice(0, space) : head).replace(/[\s,.;:]+$/, '')}…`;
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * A title for a thread without a model: from the router's reading of the turn when it ran a tool
 * (the tool, as the app names its rows, and what it was asked for: "Parts: material name Steel"),
 * else the first sentence of the turn's answer (the model's). Undefined when the turn gives
 * neither, or the router only asked, declined or refused: a later turn then gives the title.
 */
export function generatedTitle(turnItems: readonly ItemContent[], label?: (tool: string, language: string) => string | null): string | undefined {
  const planItem = turnItems.find(isPlanItem);
  if (planItem !== undefined) {
    const { plan: value, next } = planItemOf(planItem);
    // A question, a refusal or rephrase guidance says nothing of what the thread is about: the title waits for a turn that does.
    if (next !== 'run' && next !== 'model') return undefined;
    const plan = value as unknown as TurnPlan | null;
    const event = plan !== null && typeof plan === 'object' && Array.isArray(plan.steps) ? planEventOf(plan, next) : undefined;
    const step = event?.outcome === 'run' ? event.steps.find((candidate) => candidate.tool !== null) : undefined;
    if (event !== undefined && step?.tool != null) {
      const name = label?.(step.tool, event.language) ?? words(step.tool);
      const what = argumentWords(step.arguments).join(', ');
      return cut(capitalized(what === '' ? name : `${name}: ${what}`), generatedTitleLength);
    }
  }
  const answer = turnItems.find((item) => item.kind === 'assistant_text' && itemText(item).trim() !== '' && !textMarks(item).continuation);
  if (answer === undefined) return undefined;
  const text = itemText(answer).trim();
  const sentence = /^(.+?[.!?])(\s|$)/s.exec(text)?.[1] ?? text.split('\n')[0] ?? text;
  const title = cut(sentence.replace(/[*_`#|]/g, ''), generatedTitleLength);
  return title === '' ? undefined : title;
}

/**
 * The thread now: its latest turn, read with that turn's items up to the journal's last ordinal.
 * The running round's text is its drafts since the round's last retry, until its own text lands.
 */
export async function threadState(store: Store, thread: ThreadRecord, now: number): Promise<ThreadState> {
  const ordinal = await store.lastOrdinal(thread.id);
  const turns = await store.listTurns(thread.id);
  const turn = turns[turns.length - 1] ?? null;
  const journaled = turn === null ? [] : (await store.listItems(thread.id, { turnId: turn.id })).filter((item) => item.ordinal <= ordinal);
  const items = withoutSuperseded(journaled);
  const reader = new RunReader();
  if (turn !== null) reader.seed(turn.id, turn.status, journaled);
  const runOf = (item: ItemRecord): string => runIdOf(item.turnId, runNumberAt(journaled, item.ordinal));
  const active = turn !== null && activeTurnStatuses.includes(turn.status);
  const queued = 'listQueued' in store && typeof store.listQueued === 'function' ? await store.listQueued(thread.id) : [];
  return {
    thread,
    ordinal,
    turn,
    runId: reader.runId,
    phase: reader.phase,
    projection: turn === null ? null : turnProjection(turn, journaled, now),
    text: active ? shownText(items) : '',
    confirmation: turn?.status === 'waiting' ? pendingConfirmation(items, runOf) : null,
    question: pendingQuestion(items, runOf),
    queue: queued.map((message, index) => ({ id: message.id, text: message.text, position: index + 1, steer: message.steer })),
    stopping: active ? (stopRequestOf(items) ?? null) : null,
    queueHeld: turn !== null && holdsQueue(turn, items),
  };
}

/** The text the running round has shown: its drafts after its last failed attempt, until the round's own text is committed. */
function shownText(items: readonly ItemRecord[]): string {
  let text = '';
  let step = -1;
  for (const item of items) {
    if (item.kind === 'text_draft') {
      if (itemStep(item) !== step) text = '';
      step = itemStep(item);
      text += itemText(item);
    } else if (item.kind === 'retry_marker' && retryReason(item) === 'provider') text = '';
    else if ((item.kind === 'assistant_text' && itemStep(item) === step) || item.kind === 'tool_call') text = '';
  }
  return text;
}

function pendingConfirmation(items: readonly ItemRecord[], runOf: (item: ItemRecord) => string): ThreadState['confirmation'] {
  const resolved = new Set(items.filter((item) => item.kind === 'confirmation_resolution').map((item) => confirmationResolutionOf(item).confirmationId));
  const item = items.findLast((candidate) => candidate.kind === 'confirmation_request' && !resolved.has(confirmationRequestOf(candidate).confirmationId));
  if (item === undefined) return null;
  const request = confirmationRequestOf(item);
  const { mutation, input } = describeMutation(request.name, request.arguments);
  return { id: request.confirmationId, run_id: runOf(item), mutation, input, expires_at: request.expiresAt, ...(request.message === undefined ? {} : { message: request.message }) };
}

function pendingQuestion(items: readonly ItemRecord[], runOf: (item: ItemRecord) => string): ThreadState['question'] {
  const open = unansweredQuestions(items)[0];
  if (open === undefined) return null;
  const { type: _type, ...question } = questionEvent(open);
  const item = items.find((candidate) => candidate.kind === 'question' && candidate.id === open.questionId);
  return { ...question, run_id: item === undefined ? '' : runOf(item) };
}

/** Where a fork from `item` ends: through an answer, or just before a person's message (whose text the fork hands back to send again). */
export function forkPoint(items: readonly ItemRecord[], itemId: string): { readonly item: ItemRecord; readonly through: number; readonly text?: string } {
  const item = items.find((candidate) => candidate.id === itemId);
  if (item === undefined || (item.kind !== 'user_text' && item.kind !== 'assistant_text')) {
    throw new PlumbError('fork_point_invalid', 'A thread is forked from one of its messages: the id of a user_text or assistant_text item of this thread.');
  }
  return item.kind === 'assistant_text' ? { item, through: item.ordinal } : { item, through: item.ordinal - 1, text: itemText(item) };
}
