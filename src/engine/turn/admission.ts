import { PlumbError, isPlumbError } from '../../core/index.js';
import type { Actor, JsonValue } from '../../core/index.js';
import type { BeginTurnResult } from '../../store/index.js';
import { LANGUAGES } from '../../router/index.js';
import { isTimeZone } from '../shared/index.js';
import type { ChatEvent, EventChannel } from '../shared/index.js';
import { ownerOf, threadNotFound } from '../thread/index.js';
import type { QueuedStart } from '../thread/index.js';
import { replayTurn } from '../recovery/index.js';
import type { TurnHost } from './runner.js';
import { TurnRun } from './turn-run.js';
import { latestSnapshot, parsePageContext, sameSnapshot, snapshotData } from '../context/index.js';
import type { PageContext, ParsedPageContext } from '../context/index.js';
import { emptyCounters } from './turn-state.js';

export interface SendRequest {
  readonly actor: Actor;
  readonly threadId?: string;
  readonly requestKey: string;
  readonly text: string;
  /** Aborting stops reading the events; an accepted turn still finishes and is journaled. */
  readonly signal?: AbortSignal;
  /**
   * False when the caller cannot ask the person to confirm (a plain HTTP request): a write that
   * needs confirmation then ends the turn with `confirmation_required_transport` instead of pausing.
   * Default true.
   */
  readonly canConfirm?: boolean;
  /**
   * The language the router reads this turn in (`en`, `pt-BR`), chosen by the person (never guessed
   * from the text); the thread's router session goes on in it. Default: the session's language, at
   * first the vocabulary's `settings.language`.
   */
  readonly language?: string;
  /** Start a new thread for this turn instead of continuing the owner's latest one (ignored with `threadId`). */
  readonly newThread?: boolean;
  /**
   * What the person is looking at, as `[{ kind, label, text, truncated? }]`: documents or records the
   * page shows. With `context`, the thread's model context from this message on (docs/engine.md, "Page context").
   */
  readonly references?: readonly { readonly kind: string; readonly label: string; readonly text: string; readonly truncated?: boolean }[];
  /** Facts of the page, as `[{ kind, title, text, value? }]`; `value` is the identity a router context parameter takes. */
  readonly context?: readonly { readonly kind: string; readonly title: string; readonly text: string; readonly value?: string | number }[];
  /** Text the model reads in this message's provider rounds only; never stored (the user item only notes that there was some). */
  readonly supplementalContext?: string;
  /** The IANA time zone the router reads dates in for this turn (`Europe/Lisbon`); default the `timeZone` setting. */
  readonly timeZone?: string;
}

/** Admits a person's message: a new turn run to its end, a queued message, or the replay of a resent key. */
export async function send(host: TurnHost, request: SendRequest, channel: EventChannel<ChatEvent>, answering?: string): Promise<void> {
  await host.usable();
  if (typeof request.text !== 'string' || request.text.trim() === '') throw new PlumbError('bad_message', 'The message text is missing or blank. Send some text.');
  if (typeof request.requestKey !== 'string' || request.requestKey === '') {
    throw new PlumbError('bad_message', 'The request key is missing. Send a unique requestKey per message so that a resend is recognised.');
  }
  if (request.language !== undefined && !(LANGUAGES as readonly string[]).includes(request.language)) {
    throw new PlumbError('bad_message', `Unknown language '${String(request.language)}'. Languages: ${LANGUAGES.join(', ')}.`);
  }
  const page = parsePageContext(request);
  if (request.timeZone !== undefined) checkTimeZone(request.timeZone);
  const owner = ownerOf(request.actor);
  host.runner.checkRoom();
  const userData = await userItemData(host, owner, request, page);
  // Without a thread id: the owner's latest thread, or a new one, in the turn's own transaction;
  // `newThread`: a thread of its own, made with its first turn in one step, so that no other message
  // finds it empty and runs first (a resent request key still replays its turn, in the thread it began).
  const title = request.text.trim().slice(0, 80);
  const begun =
    request.threadId !== undefined
      ? await beginInOwnedThread(host, owner, request.threadId, request, userData)
      : await host.parts.store.beginTurn({ owner, newThreadTitle: title, newThread: request.newThread === true, requestKey: request.requestKey, input: request.text, ...userData, lease: host.lease() });
  const thread = begun.thread;
  // Refusals of the message: no run of that turn sent them.
  const base = { thread_id: thread.id, turn_id: begun.turn.id, run_id: '' };
  if (begun.outcome === 'busy' && (page.snapshot !== undefined || page.supplemental !== undefined)) {
    void channel.push({ ...base, type: 'error', code: 'context_not_queued', message: 'This conversation is still answering a message, and a message with page context cannot wait in its queue. Send it once the answer ends (or stop it first).' });
    return;
  }
  if (begun.outcome === 'busy') {
    // Queued, to run once the thread's turn is over: this stream says where, then carries it.
    const limit = host.parts.settings.maxQueuedMessages;
    const queued = limit > 0 && (await host.queue.wait({ threadId: thread.id, owner, actor: request.actor as unknown as JsonValue, requestKey: request.requestKey, text: request.text, language: request.language }, channel, request.canConfirm ?? true));
    if (queued) return;
    const message = limit > 0
      ? `This conversation is still answering a message and already has ${limit} waiting (maxQueuedMessages). Wait for them, or remove one.`
      : 'This conversation is still answering a message. Wait for it to finish or cancel it.';
    void channel.push({ ...base, type: 'error', code: 'turn_in_progress', message });
    return;
  }
  if (begun.outcome === 'existing') {
    if (begun.turn.input !== request.text) {
      void channel.push({ ...base, type: 'error', code: 'request_conflict', message: 'This request key was already used with different text. Use a new request key for a new message.' });
      return;
    }
    await replayTurn(host.parts.store, begun.turn, channel, (turn) => {
      const active = host.runner.active.get(turn.threadId);
      return active !== undefined && active.run.turnId === turn.id ? active.settled : undefined;
    });
    return;
  }
  host.parts.hooks.emit('messageReceived', { actor: request.actor, threadId: thread.id, turnId: begun.turn.id, text: request.text });
  // The turn stays `accepted` until its first step commits as `running` (one transaction fewer).
  // It holds only its own items until its first model round reads the thread's recent tail
  // (`TurnRun.loadThread`): a turn waiting for its slot holds as little as it can, and a router
  // turn that needs no model never reads it. A new thread's journal is just the user item.
  await host.runner.run(
    new TurnRun({
      parts: host.parts,
      actor: request.actor,
      thread,
      turn: begun.turn,
      channel,
      items: [begun.userItem],
      counters: emptyCounters,
      canConfirm: request.canConfirm,
      language: request.language,
      turnItemsOnly: begun.userItem.ordinal !== 1,
      answering,
      supplementalContext: page.supplemental,
      timeZone: request.timeZone,
    }),
    () => Promise.resolve(),
  );
}

/** A turn in a named thread: the store checks the owner in the turn's own transaction (one read, no window between check and write). */
async function beginInOwnedThread(host: TurnHost, owner: string, threadId: string, request: SendRequest, userData: UserData): Promise<BeginTurnResult> {
  try {
    return await host.parts.store.beginTurn({ threadId, owner, requestKey: request.requestKey, input: request.text, ...userData, lease: host.lease() });
  } catch (error) {
    throw isPlumbError(error) && error.code === 'store_not_found' ? threadNotFound(threadId) : error;
  }
}

type UserData = { readonly userData?: Readonly<Record<string, JsonValue>> };

/**
 * What the user item holds besides its text: the page context when it differs from the snapshot in
 * effect in the thread it goes to (the same facts sent again add nothing), and whether this
 * message's rounds had supplemental context (its text is never stored).
 */
async function userItemData(host: TurnHost, owner: string, request: SendRequest, page: ParsedPageContext): Promise<UserData> {
  const data: Record<string, JsonValue> = {};
  if (page.snapshot !== undefined && !sameSnapshot(page.snapshot, await snapshotInEffect(host, owner, request))) data.context = snapshotData(page.snapshot);
  if (page.supplemental !== undefined) data.supplementalContext = true;
  return Object.keys(data).length === 0 ? {} : { userData: data };
}

/** The snapshot in effect in the thread a message goes to (none in a new thread); read only for a message that sends one. */
async function snapshotInEffect(host: TurnHost, owner: string, request: SendRequest): Promise<PageContext | undefined> {
  const { store } = host.parts;
  const threadId = request.threadId ?? (request.newThread === true ? undefined : (await store.latestThread(owner))?.id);
  return threadId === undefined ? undefined : latestSnapshot(await store.listItems(threadId));
}

function checkTimeZone(zone: string): void {
  if (!isTimeZone(zone)) throw new PlumbError('invalid_time_zone', `Unknown time zone '${String(zone)}'. Send an IANA time zone name such as 'Europe/Lisbon' or 'UTC'.`);
}

/** A queued message begun as its thread's turn: run as the actor who sent it. */
export async function runQueued(host: TurnHost, start: QueuedStart): Promise<void> {
  const { message, begun } = start;
  const actor = message.actor as unknown as Actor;
  host.parts.hooks.emit('messageReceived', { actor, threadId: begun.thread.id, turnId: begun.turn.id, text: message.text });
  const run = new TurnRun({
    parts: host.parts,
    actor,
    thread: begun.thread,
    turn: begun.turn,
    channel: start.channel,
    items: [begun.userItem],
    counters: emptyCounters,
    canConfirm: start.canConfirm,
    language: message.language ?? undefined,
    turnItemsOnly: begun.userItem.ordinal !== 1,
  });
  try {
    await host.runner.run(run, () => Promise.resolve());
  } finally {
    start.channel.close();
  }
}
