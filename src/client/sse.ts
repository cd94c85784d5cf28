import { PlumbClientError } from './client-error.js';

/**
 * The `data:` payloads of a `text/event-stream` body, parsed as JSON, as they arrive. Events are
 * separated by a blank line; multi-line data is joined with `\n` (the SSE rule); comments and other
 * fields are skipped. The reader is released when the caller stops early.
 */
export async function* readSse(body: ReadableStream<Uint8Array>): AsyncGenerator<unknown> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const payload = (block: string): unknown => {
    const data = block
      .split(/\r?\n/)
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(line.startsWith('data: ') ? 6 : 5))
      .join('\n');
    if (data === '') return undefined;
    try {
      return JSON.parse(data) as unknown;
    } catch (error) {
      throw new PlumbClientError('bad_response', 'An SSE event of the chat stream is not JSON.', { cause: error });
    }
  };
  try {
    for (;;) {
      let chunk: Awaited<ReturnType<typeof reader.read>>;
      try {
        chunk = await reader.read();
      } catch (error) {
        throw new PlumbClientError('request_failed', 'The chat stream broke before the turn ended.', { cause: error });
      }
      if (chunk.done) break;
      buffer += decoder.decode(chunk.value, { stream: true });
      let end = buffer.search(/\r?\n\r?\n/);
      while (end >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end).replace(/^\r?\n\r?\n/, '');
        const value = payload(block);
        if (value !== undefined) yield value;
        end = buffer.search(/\r?\n\r?\n/);
      }
    }
    const last = payload(buffer + decoder.decode());
    if (last !== undefined) yield last;
  } finally {
    await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}
