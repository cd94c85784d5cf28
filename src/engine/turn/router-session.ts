import { isPlumbError } from '../../core/index.js';
import { MAX_HISTORY, sessionFromJSON } from '../../router/index.js';
import { newItems } from '../shared/index.js';
import type { RoutingParts, SessionHandle } from './router-types.js';
import type { TurnRun } from './turn-run.js';

/** Check-history entries a plan step can add (a check and its outcome) times a generous plan size. */
const TURN_MARGIN = 100;

/**
 * The thread's session: restored from the thread (a session written against an older vocabulary
 * is adopted), or a new one when there is none or it cannot be restored (the catalogue changed);
 * a replaced session is noted in the journal, and the turn goes on. Before a new turn is read, a
 * session whose check history reached `maxRouterSessionHistory` (and has no open question), or
 * nears the router's own bound, is rotated: a new session in the same language, noted likewise.
 */
export async function openSession(run: TurnRun, routing: RoutingParts, newTurn: boolean): Promise<SessionHandle> {
  const router = routing.reader.router();
  const json = run.thread.routerSession;
  let note: Readonly<Record<string, string | number>> | undefined;
  let language = run.language;
  if (json !== null && json !== '') {
    // The session this engine wrote last is asked directly; only one read from the store is parsed.
    const live = routing.live.take(run.thread.id, json, router);
    const limit = run.parts.settings.maxRouterSessionHistory;
    const rotate = !newTurn ? undefined : live === undefined ? rotation(json, limit) : due(live.summary().checks, live.summary().asking, limit) ? { entries: live.summary().checks, language: live.summary().language } : undefined;
    if (rotate === undefined) {
      if (live !== undefined) return { router, session: live, saved: json };
      try {
        return { router, session: sessionFromJSON(router, json, { adoptVocabulary: true }), saved: json };
      } catch (error) {
        note = isPlumbError(error)
          ? { event: 'router_session_replaced', code: error.code, message: error.message }
          : { event: 'router_session_replaced', code: 'router_invalid_session', message: 'The saved router session could not be read.' };
      }
    } else {
      note = { event: 'router_session_rotated', checks: rotate.entries, message: `The router session carried ${rotate.entries} check entries; a new one starts.` };
      language = rotate.language ?? language;
    }
  }
  const onUnread = routing.onUnread === 'model' && run.parts.provider !== undefined ? 'model' : 'refuse';
  const session = router.session(language === undefined ? { onUnread } : { onUnread, language });
  if (note !== undefined) await run.append([newItems.note(note)]);
  return { router, session, saved: '' };
}

/** Whether a session with this many check entries (and an open question or not) is due for rotation. */
function due(entries: number, open: boolean, limit: number): boolean {
  return !(entries < Math.min(limit, MAX_HISTORY - TURN_MARGIN) || (open && entries < MAX_HISTORY - TURN_MARGIN));
}

/** Whether a saved session is due for rotation: its history length and language, or undefined. */
function rotation(json: string, limit: number): { readonly entries: number; readonly language: string | undefined } | undefined {
  let state: { history?: unknown; answered?: { open?: unknown }; answerSettings?: { language?: unknown } };
  try {
    state = JSON.parse(json) as typeof state;
  } catch {
    return undefined; // restoring reports it
  }
  const entries = Array.isArray(state.history) ? state.history.length : 0;
  const open = state.answered?.open !== null && state.answered?.open !== undefined;
  if (!due(entries, open, limit)) return undefined;
  const language = state.answerSettings?.language;
  return { entries, language: typeof language === 'string' ? language : undefined };
}

/** Writes the session to its thread when it changed since it was read or last written; returns the JSON the thread holds. */
export async function saveSession(run: TurnRun): Promise<string | undefined> {
  const handle = run.session;
  if (handle === undefined) return undefined;
  const json = handle.session.toJSON();
  if (json === handle.saved) return json;
  await run.parts.store.updateThread(run.thread.id, { routerSession: json });
  handle.saved = json;
  return json;
}

/**
 * The run's last write of the session: after it nothing changes the live object, so the thread's next
 * turn may take it back while the thread still holds this JSON.
 */
export async function saveSessionForNextTurn(run: TurnRun, routing: RoutingParts): Promise<void> {
  const json = await saveSession(run);
  if (json !== undefined && run.session !== undefined) routing.live.put(run.thread.id, json, run.session.router, run.session.session);
}
