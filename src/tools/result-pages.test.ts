import { describe, expect, it } from 'vitest';
import { firstPage, resultPage } from './index.js';

const value = { rows: Array.from({ length: 3000 }, (_, index) => ({ id: index, note: `ñandú "${index}" \\ 漢字 \n` })) };

describe('result pages', () => {
  it('leaves a result that fits alone', () => {
    expect(firstPage({ rows: [1, 2, 3] }, 'r', 4096)).toBeUndefined();
  });

  it.each([1024, 4096, 65_536])('pages the whole JSON text in parts that each fit %i bytes, never splitting a character', (maxBytes) => {
    const json = Buffer.from(JSON.stringify(value), 'utf8');
    const first = firstPage(value, 'r1', maxBytes)!;
    expect(first.totalBytes).toBe(json.length);
    expect(first.view).toMatchObject({ truncated: true, result_id: 'r1', offset: 0, total_bytes: json.length });
    const pages = [first.view];
    while (pages.at(-1)!.next_offset !== null) pages.push(resultPage(json, 'r1', pages.at(-1)!.next_offset as number, maxBytes));
    for (const page of pages) expect(Buffer.byteLength(JSON.stringify(page))).toBeLessThanOrEqual(maxBytes);
    expect(pages.map((page) => page.text as string).join('')).toBe(json.toString('utf8'));
    expect(pages.at(-1)).toMatchObject({ next_offset: null });
  });

  it('answers an empty last page at the end', () => {
    const json = Buffer.from('"abc"');
    expect(resultPage(json, 'r', 5, 4096)).toMatchObject({ offset: 5, next_offset: null, text: '' });
  });
});
