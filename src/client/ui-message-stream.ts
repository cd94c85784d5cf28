import type { PlumbEvent } from './protocol.js';
import type { PlumbUiChunk } from './ui-chunks.js';

export interface UiStreamOptions {
  /**
   * `turn` (default): a new assistant message, one step. `continuation`: the rest of a turn the
   * person just confirmed, added to the assistant message that holds its tool row.
   */
  readonly mode?: 'turn' | 'continuation';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A Plumb turn's events as the AI SDK's UI message stream: text parts, a dynamic tool row per tool
 * call (its output, its error as `code: message`, or `denied` when the person said no), an approval
 * request on the tool row of a held write (answer it with the confirmation id, which is the
 * approval id), the router's plan and each confirmation's sentence as `data-plumb-*` parts, and
 * the thread, turn and usage as message metadata.
 */
export async function* toUiMessageChunks(events: AsyncIterable<PlumbEvent> | Iterable<PlumbEvent>, options: UiStreamOptions = {}): AsyncGenerator<PlumbUiChunk> {
  const continuation = options.mode === 'continuation';
  let started = false;
  let text: string | undefined;
  let texts = 0;
  let finished = false;
  let awaitingApproval = false;
  const openCalls: { id: string; name: string }[] = [];
  const metadata = (event: PlumbEvent) => ({ plumb: { threadId: event.thread_id, turnId: event.turn_id } });

  function* begin(event: PlumbEvent | undefined): Generator<PlumbUiChunk> {
    if (started) return;
    started = true;
    yield event === undefined || event.thread_id === '' ? { type: 'start' } : { type: 'start', messageMetadata: metadata(event) };
    if (!continuation) yield { type: 'start-step' };
  }
  function* closeText(): Generator<PlumbUiChunk> {
    if (text === undefined) return;
    yield { type: 'text-end', id: text };
    text = undefined;
  }
  function* finish(reason: 'stop' | 'tool-calls' | 'error'): Generator<PlumbUiChunk> {
    yield* closeText();
    yield { type: 'finish-step' };
    yield { type: 'finish', finishReason: reason };
    finished = true;
  }

  for await (const event of events) {
    if (finished) break;
    yield* begin(event);
    switch (event.type) {
      case 'plan':
        yield { type: 'data-plumb-plan', data: { outcome: event.outcome, language: event.language, steps: event.steps } };
        break;
      case 'text_chunk':
        if (text === undefined) {
          text = `text-${event.turn_id}-${++texts}`;
          yield { type: 'text-start', id: text };
        }
        yield { type: 'text-delta', id: text, delta: event.content };
        break;
      case 'tool_call':
        yield* closeText();
        openCalls.push({ id: event.id, name: event.name });
        yield { type: 'tool-input-available', toolCallId: event.id, toolName: event.name, input: event.args, dynamic: true };
        break;
      case 'tool_result': {
        yield* closeText();
        const index = openCalls.findIndex((call) => call.id === event.id);
        if (index >= 0) openCalls.splice(index, 1);
        const result = event.result;
        if (isRecord(result) && isRecord(result.error) && typeof result.error.code === 'string') {
          yield { type: 'tool-output-error', toolCallId: event.id, errorText: `${result.error.code}: ${typeof result.error.message === 'string' ? result.error.message : ''}`, dynamic: true };
        } else if (isRecord(result) && result.status === 'cancelled' && result.reason === 'user_rejected') {
          yield { type: 'tool-output-denied', toolCallId: event.id };
        } else {
          yield { type: 'tool-output-available', toolCallId: event.id, output: result, dynamic: true };
        }
        break;
      }
      case 'confirm_mutation': {
        yield* closeText();
        let call = [...openCalls].reverse().find((open) => open.name === event.mutation);
        if (call === undefined) {
          // A held write the turn did not announce as a tool call: give it a row of its own.
          call = { id: `confirm-${event.id}`, name: event.mutation };
          yield { type: 'tool-input-available', toolCallId: call.id, toolName: call.name, input: event.input, dynamic: true };
        }
        yield { type: 'tool-approval-request', approvalId: event.id, toolCallId: call.id };
        yield {
          type: 'data-plumb-confirmation',
          id: event.id,
          data: { confirmationId: event.id, tool: event.mutation, input: event.input, expiresAt: event.expires_at, ...(event.message === undefined ? {} : { message: event.message }) },
        };
        awaitingApproval = true;
        break;
      }
      case 'retry':
        yield* closeText();
        yield { type: 'data-plumb-retry', data: { attempt: event.attempt, code: event.code }, transient: true };
        break;
      case 'done':
        yield* closeText();
        yield { type: 'message-metadata', messageMetadata: { plumb: { threadId: event.thread_id, turnId: event.turn_id, usage: { inputTokens: event.usage.input_tokens, outputTokens: event.usage.output_tokens } } } };
        yield* finish('stop');
        break;
      case 'error':
        yield* closeText();
        yield { type: 'message-metadata', messageMetadata: { plumb: { threadId: event.thread_id, turnId: event.turn_id, error: { code: event.code, message: event.message } } } };
        yield { type: 'error', errorText: `${event.code}: ${event.message}` };
        yield* finish('error');
        break;
      default:
        break;
    }
  }
  if (finished) return;
  // The stream ended without done or error: the turn waits for a confirmation (or the server went away).
  yield* begin(undefined);
  yield* finish(awaitingApproval ? 'tool-calls' : 'stop');
}
