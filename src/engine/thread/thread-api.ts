import { PlumbError, actorKey } from '../../core/index.js';
import type { Actor } from '../../core/index.js';
import type { ItemRecord, QueuedMessage, Store, ThreadRecord, TurnRecord } from '../../store/index.js';
import type { HookBus } from '../shared/index.js';
import { forkPoint, generatedTitle, pageItems, pageThreads, personTitle, threadState } from './thread-ops.js';
import type { ItemPageRequest, ItemPageView, QueuedView, ThreadPageRequest, ThreadPageView, ThreadState } from './thread-ops.js';
import { queueView, queuedMessageUnavailable } from './thread-queue.js';
import type { ThreadQueue } from './thread-queue.js';
import type { ThreadTails } from './thread-tails.js';

/** A thread's queue after a change to it, head first. */
export interface QueueChange {
  readonly threadId: string;
  readonly queue: readonly QueuedView[];
}

export interface ThreadView {
  readonly thread: ThreadRecord;
  readonly turns: readonly TurnRecord[];
}

/**
 * The thread queue (docs/engine.md, "Queue and steering"): a message sent while a turn runs or
 * waits on a person waits here (`send` streams `queued`, then its own turn when it runs). Each
 * change answers the thread's queue after it; `queued_message_unavailable` once the message ran,
 * joined a turn, was removed, or (edit) no longer holds `expectedText`.
 */
export interface QueueApi {
  list(request: { readonly actor: Actor; readonly threadId: string }): Promise<readonly QueuedView[]>;
  edit(request: { readonly actor: Actor; readonly queueId: string; readonly text: string; readonly expectedText?: string }): Promise<QueueChange>;
  remove(request: { readonly actor: Actor; readonly queueId: string }): Promise<QueueChange>;
  /** Moves the message to the head, stops the thread's current attempt (gracefully: a running tool may finish) and runs the message as the next turn, also after a stop held the queue. */
  sendNow(request: { readonly actor: Actor; readonly queueId: string }): Promise<QueueChange>;
}

export interface ThreadsApi {
  list(actor: Actor, options?: { readonly limit?: number }): Promise<readonly ThreadRecord[]>;
  view(request: { readonly actor: Actor; readonly threadId: string }): Promise<ThreadView>;
  history(request: { readonly actor: Actor; readonly threadId: string }): Promise<readonly ItemRecord[]>;
  delete(request: { readonly actor: Actor; readonly threadId: string }): Promise<boolean>;
  /** A page of the actor's threads, most recently updated first; with `search`, those whose title or messages contain it. */
  page(request: { readonly actor: Actor } & ThreadPageRequest): Promise<ThreadPageView>;
  /** A page of the thread's items: at most 150 items and 512 KiB of their data (a larger item comes alone). */
  items(request: { readonly actor: Actor; readonly threadId: string } & ItemPageRequest): Promise<ItemPageView>;
  /** A person's title; `null` gives the thread a generated one from its journal (no model). Does not make it the latest thread. */
  rename(request: { readonly actor: Actor; readonly threadId: string; readonly title: string | null }): Promise<ThreadRecord>;
  /** A new thread from one of this one's messages: through an answer, or up to (without) a person's message, whose text comes back as `text`. */
  fork(request: { readonly actor: Actor; readonly threadId: string; readonly itemId: string }): Promise<{ readonly thread: ThreadRecord; readonly text?: string }>;
  /** The thread as it is now (latest turn, shown text, pending confirmation and question, queue), for a live view. */
  state(request: { readonly actor: Actor; readonly threadId: string }): Promise<ThreadState>;
}

/** The router's name for a tool's rows ("parts"), for generated titles. */
export type TitleLabel = (tool: string, language: string) => string | null;

/** What the thread operations need of the engine. */
export interface ThreadDeps {
  readonly store: Store;
  readonly queue: ThreadQueue;
  readonly tails: ThreadTails;
  readonly hooks: HookBus;
  /** Waits for the engine's start; throws `engine_closed` once it closed. */
  readonly usable: () => Promise<void>;
  /** Stops the thread's active run at once and waits for it (a deleted thread's). */
  readonly stopActive: (threadId: string) => Promise<void>;
  readonly titleLabel: TitleLabel | undefined;
  /** The engine's clock (a turn still active is projected to now). */
  readonly clock: () => number;
}

export function ownerOf(actor: Actor): string {
  const owner = actorKey(actor);
  if (owner === undefined) throw new PlumbError('session_required', 'An anonymous visitor needs a session key to keep a conversation.');
  return owner;
}

export function threadNotFound(threadId: string): PlumbError {
  return new PlumbError('thread_not_found', `No thread '${threadId}' of yours exists.`);
}

export async function ownedThread(deps: Pick<ThreadDeps, 'store' | 'usable'>, actor: Actor, threadId: string): Promise<ThreadRecord> {
  await deps.usable();
  const owner = ownerOf(actor);
  const thread = await deps.store.getThread(threadId);
  if (thread === undefined || thread.owner !== owner) throw threadNotFound(threadId);
  return thread;
}

export function threadsApi(deps: ThreadDeps): ThreadsApi {
  const { store } = deps;
  return {
    list: async (actor, listOptions) => {
      await deps.usable();
      return store.listThreads(ownerOf(actor), listOptions);
    },
    view: async ({ actor, threadId }) => {
      const thread = await ownedThread(deps, actor, threadId);
      return { thread, turns: await store.listTurns(thread.id) };
    },
    history: async ({ actor, threadId }) => {
      const thread = await ownedThread(deps, actor, threadId);
      return store.listItems(thread.id);
    },
    delete: async ({ actor, threadId }) => {
      const thread = await ownedThread(deps, actor, threadId);
      await deps.stopActive(thread.id);
      deps.tails.forget(thread.id);
      const queued = await store.listQueued(thread.id);
      const deleted = await store.deleteThread(thread.id);
      for (const message of queued) deps.queue.left(message, 'removed');
      return deleted;
    },
    page: async ({ actor, ...request }) => {
      await deps.usable();
      return pageThreads(store, ownerOf(actor), request);
    },
    items: async ({ actor, threadId, ...request }) => pageItems(store, await ownedThread(deps, actor, threadId), request),
    rename: async ({ actor, threadId, title }) => {
      const thread = await ownedThread(deps, actor, threadId);
      if (title !== null) return (await store.setThreadTitle(thread.id, personTitle(title), 'person')) ?? thread;
      const first = (await store.listTurns(thread.id)).find((turn) => turn.status === 'completed');
      const generated = first === undefined ? undefined : generatedTitle(await store.listItems(thread.id, { turnId: first.id }), deps.titleLabel);
      return (await store.setThreadTitle(thread.id, generated ?? thread.title, 'generated')) ?? thread;
    },
    fork: async ({ actor, threadId, itemId }) => {
      const thread = await ownedThread(deps, actor, threadId);
      const point = forkPoint(await store.listItems(thread.id), itemId);
      const fork = await store.forkThread({ threadId: thread.id, throughOrdinal: point.through, fromItemId: point.item.id });
      return point.text === undefined ? { thread: fork } : { thread: fork, text: point.text };
    },
    state: async ({ actor, threadId }) => threadState(store, await ownedThread(deps, actor, threadId), deps.clock()),
  };
}

export function queueApi(deps: ThreadDeps): QueueApi {
  const { store, queue, hooks } = deps;
  const owned = async (actor: Actor, queueId: string): Promise<QueuedMessage> => {
    await deps.usable();
    const owner = ownerOf(actor);
    const message = typeof queueId === 'string' ? await store.getQueued(queueId) : undefined;
    if (message === undefined || message.owner !== owner) throw queuedMessageUnavailable();
    return message;
  };
  const change = async (threadId: string): Promise<QueueChange> => ({ threadId, queue: queueView(await store.listQueued(threadId)) });
  return {
    list: async ({ actor, threadId }) => queueView(await store.listQueued((await ownedThread(deps, actor, threadId)).id)),
    edit: async ({ actor, queueId, text, expectedText }) => {
      if (typeof text !== 'string' || text.trim() === '') throw new PlumbError('bad_message', 'The message text is missing or blank. Send some text.');
      const message = await owned(actor, queueId);
      if ((await store.editQueued(message.id, text, expectedText)) === undefined) throw queuedMessageUnavailable();
      hooks.emit('queueChanged', { threadId: message.threadId });
      return change(message.threadId);
    },
    remove: async ({ actor, queueId }) => {
      const message = await owned(actor, queueId);
      if (!(await store.removeQueued(message.id))) throw queuedMessageUnavailable();
      queue.left(message, 'removed');
      hooks.emit('queueChanged', { threadId: message.threadId });
      return change(message.threadId);
    },
    sendNow: async ({ actor, queueId }) => {
      const message = await owned(actor, queueId);
      if ((await store.steerQueued(message.id)) === undefined) throw queuedMessageUnavailable();
      hooks.emit('queueChanged', { threadId: message.threadId });
      queue.sendNow(message.threadId, message.id);
      return change(message.threadId);
    },
  };
}
