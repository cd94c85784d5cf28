import type { JsonObject, JsonValue } from '../core/index.js';

/**
 * Pages of a large result's JSON text. A result larger than `maxResultBytes` reaches the model as
 * its first page (marked `truncated`) with a handle; `read_result` returns the next pages. Offsets
 * count bytes of the result's UTF-8 JSON text, and a page never splits a character.
 */

/** Room for a page's own fields (ids, offsets, the note) around its text. Bytes. */
const pageOverhead = 512;
/** The least text a page carries, so that paging always moves on. Bytes. */
const minSpan = 4;

const note = 'This is part of a larger tool result: bytes offset to next_offset of its JSON text (total_bytes in all). Call read_result with result_id and offset: next_offset for the next part.';

/**
 * The page of `json` (a result's JSON text) that starts at `offset` and, written as JSON with the
 * `extra` fields, fits in `maxBytes`.
 */
export function resultPage(json: Buffer, resultId: string, offset: number, maxBytes: number, extra: JsonObject = {}): JsonObject {
  const start = Math.min(Math.max(0, offset), json.length);
  let span = Math.max(minSpan, Math.min(json.length - start, maxBytes - pageOverhead));
  for (let attempt = 0; ; attempt++) {
    const end = boundary(json, start, start + span);
    const page: JsonObject = {
      ...extra,
      result_id: resultId,
      offset: start,
      next_offset: end >= json.length ? null : end,
      total_bytes: json.length,
      text: json.toString('utf8', start, end),
    };
    const size = Buffer.byteLength(JSON.stringify(page), 'utf8');
    // Escaping (quotes, backslashes, control characters) makes a page's JSON longer than its text:
    // shrink in proportion, then by halves. A bound too small for a page's own fields still gets a
    // few bytes a page, so that paging always moves on.
    if (size <= maxBytes || span <= minSpan) return page;
    const next = attempt < 4 ? Math.floor((span * (maxBytes - pageOverhead)) / size) - 16 : Math.floor(span / 2);
    span = Math.max(minSpan, Math.min(span - 1, next));
  }
}

/**
 * What the model sees of `value` when its JSON text is larger than `maxBytes`: the first page,
 * marked `truncated`, with a note on how to read on; undefined when it fits.
 */
export function firstPage(value: JsonValue, resultId: string, maxBytes: number): { readonly view: JsonObject; readonly totalBytes: number } | undefined {
  const text = JSON.stringify(value);
  // Every UTF-16 unit is at most 3 UTF-8 bytes: skip the count when it cannot matter.
  if (text === undefined || text.length * 3 <= maxBytes) return undefined;
  const json = Buffer.from(text, 'utf8');
  if (json.length <= maxBytes) return undefined;
  return { view: resultPage(json, resultId, 0, maxBytes, { truncated: true, note }), totalBytes: json.length };
}

/** The largest end at or before `end` that does not split a UTF-8 character; past `start` by one character at least. */
function boundary(json: Buffer, start: number, end: number): number {
  // A continuation byte (10xxxxxx) belongs to the character before it.
  const continues = (at: number): boolean => at < json.length && ((json[at] ?? 0) & 0xc0) === 0x80;
  let at = Math.min(end, json.length);
  while (at > start && continues(at)) at--;
  if (at === start && start < json.length) {
    at = start + 1;
    while (continues(at)) at++;
  }
  return at;
}
