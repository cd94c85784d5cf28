/** A stream whose writes can be held back and released together (a socket, an HTTP response). */
export interface Corkable {
  cork(): void;
  uncork(): void;
}

/**
 * Returns `hold`, to call before each write: the first call in a tick corks the stream and the
 * end of the tick uncorks it, so the events a turn emits together leave in one system call
 * instead of one each. Nothing waits longer than the current tick.
 */
export function corkEachTick(stream: Corkable | undefined): () => void {
  if (stream === undefined) return () => undefined;
  let corked = false;
  const release = (): void => {
    corked = false;
    stream.uncork();
  };
  return () => {
    if (corked) return;
    corked = true;
    stream.cork();
    process.nextTick(release);
  };
}
