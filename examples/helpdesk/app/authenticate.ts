import { PlumbError } from 'plumb-agent';
import type { AuthRequest, AuthResult } from 'plumb-agent';

/**
 * API clients send `Authorization: Bearer <token>`. These development tokens stand for the
 * configuration's actors; a real helpdesk checks its own sessions or tokens here.
 */
const tokens: Record<string, { id: string; roles: string[] }> = {
  'maya-token': { id: 'maya', roles: ['agent'] },
  'omar-token': { id: 'omar', roles: ['agent'] },
  'lena-token': { id: 'lena', roles: ['customer'] },
};

export function authenticate(request: AuthRequest): AuthResult {
  const header = request.headers.authorization;
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined) return null;
  const user = tokens[/^Bearer (.+)$/i.exec(value)?.[1] ?? ''];
  if (user === undefined) throw new PlumbError('unauthenticated', 'Unknown bearer token.');
  return { actor: { kind: 'user', id: user.id, roles: user.roles }, credential: 'token' };
}
