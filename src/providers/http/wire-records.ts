import { createParser } from 'eventsource-parser';
import { badResponse, streamCut } from '../provider-error.js';

/** One record from a streamed body: an SSE event (`event` may be undefined) or an NDJSON line. */
export interface WireRecord {
  readonly event?: string | undefined;
  readonly data: string;
}

/** Largest SSE event or NDJSON line accepted (bytes of text); longer ones fail as bad responses. */
export const MAX_RECORD_CHARS = 8 * 1024 * 1024;

/** Splits SSE text into records with `eventsource-parser`; `feed` returns what completed. */
export class SseSplitter {
  #pending: WireRecord[] = [];
  #overflow = false;
  readonly #parser = createParser({
    onEvent: (message) => {
      this.#pending.push(message);
    },
    onError: (error) => {
      // Unknown fields and bad retry values are ignorable; only an oversized event is fatal.
      if (error.type === 'max-buffer-size-exceeded') this.#overflow = true;
    },
    maxBufferSize: MAX_RECORD_CHARS,
  });

  feed(text: string): WireRecord[] {
    this.#parser.feed(text);
    if (this.#overflow) throw badResponse('SSE', 'an event larger than 8 MiB');
    return this.#drain();
  }

  end(): WireRecord[] {
    this.#parser.reset({ consume: true });
    return this.#drain();
  }

  #drain(): WireRecord[] {
    if (this.#pending.length === 0) return EMPTY;
    const records = this.#pending;
    this.#pending = [];
    return records;
  }
}

const EMPTY: WireRecord[] = [];

/** Splits NDJSON text into one record per non-empty line. */
export class NdjsonSplitter {
  #buffer = '';

  feed(text: string): WireRecord[] {
    this.#buffer += text;
    if (this.#buffer.indexOf('\n') === -1) {
      if (this.#buffer.length > MAX_RECORD_CHARS) throw badResponse('NDJSON', 'a line larger than 8 MiB');
      return EMPTY;
    }
    const lines = this.#buffer.split('\n');
    this.#buffer = lines.pop() ?? '';
    const records: WireRecord[] = [];
    for (const line of lines) {
      const data = line.trim();
      if (data !== '') records.push({ event: undefined, data });
    }
    return records;
  }

  end(): WireRecord[] {
    const data = this.#buffer.trim();
    this.#buffer = '';
    return data === '' ? EMPTY : [{ event: undefined, data }];
  }
}

/**
 * Reads a response body as text records. A read that breaks (socket reset) is a stream cut,
 * unless the signal aborted, in which case the signal's reason is rethrown.
 */
export async function* readRecords(
  provider: string,
  body: AsyncIterable<Uint8Array>,
  splitter: SseSplitter | NdjsonSplitter,
  signal: AbortSignal,
): AsyncGenerator<WireRecord, void, undefined> {
  const decoder = new TextDecoder();
  const chunks = body[Symbol.asyncIterator]();
  try {
    for (;;) {
      let chunk: IteratorResult<Uint8Array>;
      try {
        chunk = await chunks.next();
      } catch (error) {
        if (signal.aborted) throw signal.reason;
        throw streamCut(provider, 'its terminal event (the connection broke)', error);
      }
      if (chunk.done === true) break;
      for (const record of splitter.feed(decoder.decode(chunk.value, { stream: true }))) yield record;
    }
    const tail = decoder.decode();
    if (tail !== '') for (const record of splitter.feed(tail)) yield record;
    for (const record of splitter.end()) yield record;
  } finally {
    // Stopping early (or failing) releases the connection.
    chunks.return?.().catch(() => undefined);
  }
}
