import { setBounded } from '../../core/index.js';
import type { Router, Session } from '../../router/index.js';

/** Threads whose live session is kept between turns. Beyond it, the least recently used is dropped. */
export const LIVE_SESSIONS = 1000;

interface LiveSession {
  readonly json: string;
  readonly router: Router;
  readonly session: Session;
}

/**
 * The router sessions this engine last wrote, by thread: a turn whose thread still holds exactly that
 * JSON (no other process wrote it since) takes the live object back instead of parsing the JSON and
 * re-verifying its whole check history. A session is taken out for the length of a run and put back
 * only when the run wrote it (or left it as written), so a run that failed half way is never reused.
 */
export class LiveSessions {
  readonly #entries = new Map<string, LiveSession>();

  /** The live session for this thread when it is still the one stored; it leaves the cache. */
  take(threadId: string, json: string, router: Router): Session | undefined {
    const entry = this.#entries.get(threadId);
    if (entry === undefined) return undefined;
    this.#entries.delete(threadId);
    return entry.json === json && entry.router === router ? entry.session : undefined;
  }

  put(threadId: string, json: string, router: Router, session: Session): void {
    setBounded(this.#entries, threadId, { json, router, session }, LIVE_SESSIONS);
  }
}
