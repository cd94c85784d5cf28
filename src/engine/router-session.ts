import { isPlumbError } from '../core/index.js';
import { sessionFromJSON } from '../router/index.js';
import { newItems } from './journal.js';
import type { RoutingParts, SessionHandle } from './router-types.js';
import type { TurnRun } from './turn-run.js';

/**
 * The thread's session: restored from the thread (a session written against an older vocabulary
 * is adopted), or a new one when there is none or it cannot be restored (the catalogue changed);
 * a replaced session is noted in the journal, and the turn goes on.
 */
export async function openSession(run: TurnRun, routing: RoutingParts): Promise<SessionHandle> {
  const router = routing.reader.router();
  const json = run.thread.routerSession;
  let replaced: { code: string; message: string } | undefined;
  if (json !== null && json !== '') {
    try {
      return { router, session: sessionFromJSON(router, json, { adoptVocabulary: true }), saved: json };
    } catch (error) {
      replaced = isPlumbError(error) ? { code: error.code, message: error.message } : { code: 'router_invalid_session', message: 'The saved router session could not be read.' };
    }
  }
  const onUnread = routing.onUnread === 'model' && run.parts.provider !== undefined ? 'model' : 'refuse';
  const session = router.session(run.language === undefined ? { onUnread } : { onUnread, language: run.language });
  if (replaced !== undefined) await run.append([newItems.note({ event: 'router_session_replaced', ...replaced })]);
  return { router, session, saved: '' };
}

/** Writes the session to its thread when it changed since it was read or last written. */
export async function saveSession(run: TurnRun): Promise<void> {
  const handle = run.session;
  if (handle === undefined) return;
  const json = handle.session.toJSON();
  if (json === handle.saved) return;
  await run.parts.store.updateThread(run.thread.id, { routerSession: json });
  handle.saved = json;
}
