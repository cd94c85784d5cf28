import { randomUUID } from 'node:crypto';
import { connectRedis } from './redis-connection.js';
import { CancelListeners, ThreadListeners } from './thread-events.js';
import type { ThreadEvents, ThreadNotice, TurnCancel } from './thread-events.js';

export interface RedisThreadEventsOptions {
  readonly url: string;
  /** Longest wait to connect and to publish. Milliseconds. */
  readonly timeoutMs: number;
  /** Prefix of the channels (one per thread). Default `plumb:thread:`. */
  readonly prefix?: string;
  /** The channel of cancel requests, which every process subscribes to. Default `plumb:control`. */
  readonly controlChannel?: string;
  /** Notices whose items take more JSON than this carry only their ordinal (followers read the journal). Bytes, default 64 KiB. */
  readonly maxNoticeBytes?: number;
  readonly report: (error: unknown) => void;
}

/**
 * Thread notices over Redis pub/sub, a channel per thread: a process subscribes to a thread's
 * channel while one of its clients follows that thread, so a notice reaches only the processes
 * that want it. Publishing goes over the regular (bounded) connection, subscribing over a
 * dedicated one that ioredis resubscribes after a reconnect; a reconnect also tells every
 * follower to read its journal, which covers what was published meanwhile (pub/sub keeps nothing).
 * This process's own notices are delivered at once, without the round trip, and skipped when
 * Redis echoes them back. Cancel requests go over one control channel that every process
 * subscribes to from the start.
 */
export async function createRedisThreadEvents(options: RedisThreadEventsOptions): Promise<ThreadEvents> {
  const prefix = options.prefix ?? 'plumb:thread:';
  const maxBytes = options.maxNoticeBytes ?? 64 * 1024;
  const origin = randomUUID();
  const control = options.controlChannel ?? 'plumb:control';
  const listeners = new ThreadListeners();
  const cancels = new CancelListeners();
  const publisher = await connectRedis(options.url, { timeoutMs: options.timeoutMs, onError: options.report });
  const subscriber = await connectRedis(options.url, { timeoutMs: options.timeoutMs, onError: options.report, subscriber: true });
  let connectedOnce = false;
  subscriber.client.on('ready', () => {
    if (connectedOnce) listeners.resyncAll(options.report);
    connectedOnce = true;
  });
  subscriber.client.on('message', (channel: string, message: string) => {
    let parsed: { readonly origin?: string; readonly notice?: ThreadNotice; readonly cancel?: TurnCancel };
    try {
      parsed = JSON.parse(message) as typeof parsed;
    } catch (error) {
      options.report(error);
      return;
    }
    if (channel === control) {
      const cancel = parsed.cancel;
      if (parsed.origin === origin || typeof cancel?.threadId !== 'string' || (cancel.mode !== 'immediate' && cancel.mode !== 'graceful')) return;
      cancels.deliver({ threadId: cancel.threadId, mode: cancel.mode }, options.report);
      return;
    }
    if (parsed.origin === origin || parsed.notice === undefined || `${prefix}${parsed.notice.threadId}` !== channel) return;
    listeners.deliver(parsed.notice, options.report);
  });
  // Subscribed before this resolves, so that no cancel request sent after start is missed; bounded like connecting.
  await subscribeWithin(subscriber.client.subscribe(control), options.timeoutMs).catch(options.report);
  let closed = false;
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> =>
    (closing ??= (async () => {
      closed = true;
      await Promise.all([publisher.close(), subscriber.close()]);
    })());
  return {
    publish(notice) {
      if (closed) return;
      listeners.deliver(notice, options.report);
      let text = JSON.stringify({ origin, notice });
      if (text.length > maxBytes && notice.items !== undefined) {
        const { items: _items, ...rest } = notice;
        text = JSON.stringify({ origin, notice: rest });
      }
      publisher.client.publish(`${prefix}${notice.threadId}`, text).catch(options.report);
    },
    subscribe(threadId, listener) {
      const added = listeners.add(threadId, listener);
      if (added.first) subscriber.client.subscribe(`${prefix}${threadId}`).catch(options.report);
      return () => {
        if (added.remove() && !closed) subscriber.client.unsubscribe(`${prefix}${threadId}`).catch(options.report);
      };
    },
    requestCancel(cancel) {
      if (closed) return;
      cancels.deliver(cancel, options.report);
      publisher.client.publish(control, JSON.stringify({ origin, cancel: { threadId: cancel.threadId, mode: cancel.mode } })).catch(options.report);
    },
    onCancel: (listener) => cancels.add(listener),
    close,
    [Symbol.asyncDispose]: close,
  };
}

async function subscribeWithin(subscribed: Promise<unknown>, timeoutMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([subscribed, new Promise((_resolve, reject) => (timer = setTimeout(() => reject(new Error(`Redis did not confirm the control channel's subscription within ${timeoutMs} ms.`)), timeoutMs)))]);
  } finally {
    clearTimeout(timer);
  }
}
