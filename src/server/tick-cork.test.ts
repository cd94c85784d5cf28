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

/** Resolves once the event loop has turned (past the tick's end, where the cork is released). */
const loopTurned = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('corkEachTick', () => {
  it('sends the writes of one tick, across awaited promises, as one batch', async () => {
    const { stream, batches } = countingStream();
    const cork = corkEachTick(stream);
    for (const word of ['a', 'b', 'c']) {
      cork.hold();
      stream.write(word);
      await Promise.resolve();
    }
    await loopTurned();
    expect(batches).toEqual([['a', 'b', 'c']]);
    expect(stream.writableCorked).toBe(0);
  });

  it('releases at the end of each tick, so later writes are not held back', async () => {
    const { stream, batches } = countingStream();
    const cork = corkEachTick(stream);
    cork.hold();
    stream.write('first');
    await loopTurned();
    expect(batches).toEqual([['first']]);
    cork.hold();
    stream.write('second');
    await loopTurned();
    expect(batches).toEqual([['first'], ['second']]);
    expect(stream.writableCorked).toBe(0);
  });

  it('flush hands the held writes on at once, and the next write is held again', async () => {
    const { stream, batches } = countingStream();
    const cork = corkEachTick(stream);
    cork.hold();
    stream.write('a');
    cork.hold();
    stream.write('b');
    cork.flush();
    expect(batches).toEqual([['a', 'b']]);
    cork.hold();
    stream.write('c');
    expect(batches).toEqual([['a', 'b']]);
    await loopTurned();
    expect(batches).toEqual([['a', 'b'], ['c']]);
    expect(stream.writableCorked).toBe(0);
  });

  it('does nothing without a stream', () => {
    const cork = corkEachTick(undefined);
    expect(() => {
      cork.hold();
      cork.flush();
    }).not.toThrow();
  });
});
