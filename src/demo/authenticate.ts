import type { AuthRequest } from '../config/index.js';
import { PlumbError } from '../core/index.js';
import type { Actor } from '../core/index.js';
import { demoActor, demoActorNames } from './actors.js';

/**
 * The demo's `authenticate` hook: the user named by the `X-Plumb-User` header, else by the
 * `plumb_user` cookie; neither means anonymous. Demo only — a real host verifies a session.
 */
export function authenticateDemo(request: AuthRequest): Actor | null {
  const header = request.headers['x-plumb-user'];
  const cookie = request.headers.cookie;
  const name = (Array.isArray(header) ? header[0] : header) ?? readCookie(Array.isArray(cookie) ? cookie[0] : cookie, 'plumb_user');
  if (name === undefined || name === '' || name === 'anonymous') return null;
  const actor = demoActor(name);
  if (actor === undefined) {
    throw new PlumbError('unauthenticated', `Unknown demo user '${name}'. Known users: ${demoActorNames.filter((n) => n !== 'anonymous').join(', ')}.`);
  }
  return actor;
}

function readCookie(header: string | undefined, name: string): string | undefined {
  if (header === undefined) return undefined;
  for (const part of header.split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return decodeURIComponent(value.join('='));
  }
  return undefined;
}
