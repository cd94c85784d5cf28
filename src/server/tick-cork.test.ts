import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { corkEachTick } from './tick-cork.js';

function countingStream(): { stream: Writable; batches: string[][] } {
  const batches: string[][] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      batches.push([chunk.toString()]);
      callback();
    },
    writev(chunks, callback) {
      batches.push(chunks.map(({ chunk }) => String(chunk)));
      callback();
    },
  });
  return { stream, batches };
}

describe('corkEachTick', () => {
  it('sends the writes of one tick, across awaited promises, as one batch', async () => {
    const { stream, batches } = countingStream();
    const hold = corkEachTick(stream);
    for (const word of ['a', 'b', 'c']) {
      hold();
      stream.write(word);
      await Promise.resolve();
    }
    await new Promise((resolve) => setImmediate(resolve));
    expect(batches).toEqual([['a', 'b', 'c']]);
    expect(stream.writableCorked).toBe(0);
  });

  it('releases at the end of each tick, so later writes are not held back', async () => {
    const { stream, batches } = countingStream();
    const hold = corkEachTick(stream);
    hold();
    stream.write('first');
    await new Promise((resolve) => setImmediate(resolve));
    expect(batches).toEqual([['first']]);
    hold();
    stream.write('second');
    await new Promise((resolve) => setImmediate(resolve));
    expect(batches).toEqual([['first'], ['second']]);
    expect(stream.writableCorked).toBe(0);
  });

  it('does nothing without a stream', () => {
    expect(() => corkEachTick(undefined)()).not.toThrow();
  });
});
