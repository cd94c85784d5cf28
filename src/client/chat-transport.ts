import { isPlumbClientError } from './client-error.js';
import type { CallOptions, PlumbClient } from './client.js';
import type { PlumbEvent } from './protocol.js';
import type { PlumbMessageMetadata, PlumbUiChunk } from './ui-chunks.js';
import { toUiMessageChunks } from './ui-message-stream.js';
import { runningTurnEvents } from './view-turn.js';

/** The parts of a `useChat` message the transport reads (any `UIMessage` is one). */
export interface UiMessageLike {
  readonly role: string;
  readonly metadata?: unknown;
  readonly parts: readonly {
    readonly type: string;
    readonly text?: string;
    readonly state?: string;
    readonly toolCallId?: string;
    readonly approval?: { readonly id: string; readonly approved?: boolean };
  }[];
}

export interface PlumbChatTransportOptions {
  /** The language the router reads each turn in (`en`, `pt-BR`), or a function asked before each. */
  readonly language?: string | (() => string | undefined);
}

/** The AI SDK's `ChatTransport`, in the shape `useChat({ transport })` calls. */
export interface PlumbChatTransport {
  sendMessages(options: {
    readonly trigger: 'submit-message' | 'regenerate-message';
    readonly chatId: string;
    readonly messageId: string | undefined;
    readonly messages: readonly UiMessageLike[];
    readonly abortSignal: AbortSignal | undefined;
  }): Promise<ReadableStream<PlumbUiChunk>>;
  reconnectToStream(options: { readonly chatId: string; readonly abortSignal?: AbortSignal | undefined }): Promise<ReadableStream<PlumbUiChunk> | null>;
}

function threadOf(messages: readonly UiMessageLike[]): string | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const thread = (messages[i]!.metadata as PlumbMessageMetadata | undefined)?.plumb?.threadId;
    if (typeof thread === 'string' && thread !== '') return thread;
  }
  return undefined;
}

/** An async sequence as a ReadableStream that stops the sequence when its reader cancels. */
function readable<T>(source: AsyncGenerator<T>): ReadableStream<T> {
  return new ReadableStream<T>({
    async pull(controller) {
      const next = await source.next();
      if (next.done === true) controller.close();
      else controller.enqueue(next.value);
    },
    async cancel() {
      await source.return(undefined);
    },
  });
}

async function* confirmations(client: PlumbClient, answers: readonly { readonly id: string; readonly approved: boolean }[], options: CallOptions): AsyncGenerator<PlumbEvent> {
  for (const answer of answers) {
    const resumed = await client.confirm(answer.id, answer.approved, options);
    yield* resumed.events;
  }
}

/**
 * A Plumb server as `useChat`'s backend: `useChat({ transport: plumbChatTransport(client),
 * sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses })`. A user message is
 * one SSE turn (the first of a chat starts a new thread; later ones continue it); a tool row
 * awaiting approval is answered with `addToolApprovalResponse({ id, approved })`, which confirms or
 * rejects the held write and streams the rest of the turn into the same message.
 */
export function plumbChatTransport(client: PlumbClient, options: PlumbChatTransportOptions = {}): PlumbChatTransport {
  const threads = new Map<string, string>();
  const language = (): string | undefined => (typeof options.language === 'function' ? options.language() : options.language);
  const remember = async function* (chatId: string, chunks: AsyncGenerator<PlumbUiChunk>): AsyncGenerator<PlumbUiChunk> {
    for await (const chunk of chunks) {
      const thread = chunk.type === 'start' || chunk.type === 'message-metadata' ? chunk.messageMetadata?.plumb.threadId : undefined;
      if (thread !== undefined && thread !== '') threads.set(chatId, thread);
      yield chunk;
    }
  };
  return {
    sendMessages: ({ chatId, messages, abortSignal }) => {
      const callOptions: CallOptions = abortSignal === undefined ? {} : { signal: abortSignal };
      const last = messages[messages.length - 1];
      if (last?.role === 'assistant') {
        // The person answered approval requests: each becomes a confirmation, and the turn goes on.
        const answers = last.parts.flatMap((part) => (part.state === 'approval-responded' && part.approval !== undefined ? [{ id: part.approval.id, approved: part.approval.approved === true }] : []));
        return Promise.resolve(readable(remember(chatId, toUiMessageChunks(confirmations(client, answers, callOptions), { mode: 'continuation' }))));
      }
      const text = (last?.parts ?? [])
        .filter((part) => part.type === 'text')
        .map((part) => part.text ?? '')
        .join('');
      const thread = threads.get(chatId) ?? threadOf(messages);
      const chosen = language();
      const turn = client.stream({ text, ...(thread === undefined ? { newThread: true } : { thread }), ...(chosen === undefined ? {} : { language: chosen }) }, callOptions);
      return Promise.resolve(readable(remember(chatId, toUiMessageChunks(turn))));
    },
    reconnectToStream: async ({ chatId, abortSignal }) => {
      const thread = threads.get(chatId);
      if (thread === undefined) return null;
      // The thread's live view, as the running turn's events; a thread with no active turn has nothing to resume.
      const controller = new AbortController();
      abortSignal?.addEventListener('abort', () => controller.abort(), { once: true });
      const turn = runningTurnEvents(client.subscribe(thread, { signal: controller.signal }));
      let first: IteratorResult<PlumbEvent>;
      try {
        first = await turn.next();
      } catch (error) {
        controller.abort();
        if (isPlumbClientError(error) && error.code === 'not_found') return null;
        throw error;
      }
      if (first.done === true) {
        controller.abort();
        return null;
      }
      const resumed = async function* (): AsyncGenerator<PlumbEvent> {
        try {
          yield first.value;
          yield* turn;
        } finally {
          controller.abort();
        }
      };
      return readable(toUiMessageChunks(resumed()));
    },
  };
}
