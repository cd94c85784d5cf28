/** A stream whose writes can be held back and released together (a socket, an HTTP response). */
export interface Corkable {
  cork(): void;
  uncork(): void;
}

export interface TickCork {
  /** Call before each write: the first call in a tick corks the stream until the tick ends. */
  hold(): void;
  /** Hands the held writes on now (before checking what a slow reader still has queued). */
  flush(): void;
}

/**
 * Holds a stream's writes until the end of the current tick, so that the events a turn emits
 * together leave in one system call instead of one each. Nothing waits longer than the tick.
 */
export function corkEachTick(stream: Corkable | undefined): TickCork {
  let held = false;
  const flush = (): void => {
    if (!held) return;
    held = false;
    stream?.uncork();
  };
  return {
    hold() {
      if (held) return;
      held = true;
      stream?.cork();
      process.nextTick(flush);
    },
    flush,
  };
}
