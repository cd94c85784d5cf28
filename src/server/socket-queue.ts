import type { Actor } from '../core/index.js';
import type { ChatDeps } from './chat-deps.js';
import type { EngineEvent } from './engine-port.js';
import { answerFrame, queueRefusal } from './queue-routes.js';
import type { ErrorEventBody } from './turn-relay.js';

/** The frames of questions and the thread queue (docs/protocol.md, "WebSocket"), beside `message` and `confirm`. */
export const queueFrameTypes: readonly string[] = ['answer', 'queue_edit', 'queue_remove', 'queue_send_now'];

export interface QueueFrame {
  readonly type: string;
  readonly question_id?: unknown;
  readonly text?: unknown;
  readonly choice?: unknown;
  readonly queue_id?: unknown;
  readonly expected_text?: unknown;
}

export interface QueueFrameContext {
  readonly deps: ChatDeps;
  readonly actor: Actor;
  readonly send: (event: EngineEvent | ErrorEventBody) => void;
  /** Streams an answer's turn on the socket, as a message's. */
  readonly run: (events: () => AsyncIterable<EngineEvent>) => void;
  /** A request taken from the actor's budget; the refusal when it is spent. */
  readonly limited: () => Promise<ErrorEventBody | undefined>;
}

/**
 * `answer` streams the resumed turn (or a router question's reply) like a message; the queue
 * frames answer with a `queue` event: the thread's queue after the change (`{ type: 'queue',
 * thread_id, queue: [{ id, text, position, steer }] }`), or an error event.
 */
export async function handleQueueFrame(frame: QueueFrame, context: QueueFrameContext): Promise<void> {
  const { deps, actor, send } = context;
  const fail = (code: string, message: string): void => send({ type: 'error', code, message });
  if (frame.type === 'answer') {
    const answer = deps.engine.answer?.bind(deps.engine);
    if (answer === undefined) return fail('bad_event', 'This server takes no answers.');
    const parsed = answerFrame(frame);
    if (typeof parsed === 'string') return fail('bad_event', parsed);
    const refused = await context.limited();
    if (refused !== undefined) return send(refused);
    return context.run(() => answer({ actor, ...parsed }));
  }
  const queue = deps.engine.queue;
  if (queue === undefined) return fail('bad_event', 'This server has no thread queue.');
  if (typeof frame.queue_id !== 'string' || frame.queue_id === '') return fail('bad_event', `A ${frame.type} frame needs the queue_id of a queued message.`);
  const queueId = frame.queue_id;
  try {
    let change;
    if (frame.type === 'queue_edit') {
      if (typeof frame.text !== 'string' || (frame.expected_text !== undefined && typeof frame.expected_text !== 'string')) return fail('bad_event', 'A queue_edit frame needs a string text (and, if given, a string expected_text).');
      change = await queue.edit({ actor, queueId, text: frame.text, ...(typeof frame.expected_text === 'string' ? { expectedText: frame.expected_text } : {}) });
    } else if (frame.type === 'queue_remove') change = await queue.remove({ actor, queueId });
    else change = await queue.sendNow({ actor, queueId });
    send({ type: 'queue', thread_id: change.threadId, queue: change.queue } as EngineEvent);
  } catch (error) {
    const refusal = queueRefusal(error);
    if (refusal === undefined) throw error;
    send(refusal);
  }
}
