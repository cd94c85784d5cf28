/**
 * Who is asking. Every read and write in Plumb runs as an actor: a signed-in user with roles, or an
 * anonymous visitor identified (when a transport has one) by a session key.
 */
export interface UserActor {
  readonly kind: 'user';
  readonly id: string;
  readonly roles: readonly string[];
  readonly displayName?: string;
}

export interface AnonymousActor {
  readonly kind: 'anonymous';
  readonly sessionKey?: string;
}

export type Actor = UserActor | AnonymousActor;

export const anonymous: AnonymousActor = Object.freeze({ kind: 'anonymous' });

export function userActor(id: string, roles: readonly string[] = [], displayName?: string): UserActor {
  return Object.freeze({ kind: 'user', id, roles: Object.freeze([...roles]), ...(displayName === undefined ? {} : { displayName }) });
}

export function isAuthenticated(actor: Actor): actor is UserActor {
  return actor.kind === 'user';
}

export function hasRole(actor: Actor, role: string): boolean {
  return actor.kind === 'user' && actor.roles.includes(role);
}

/** A stable key for per-actor state (rate limits, thread ownership): `user:<id>` or `session:<key>`. */
export function actorKey(actor: Actor): string | undefined {
  if (actor.kind === 'user') return `user:${actor.id}`;
  return actor.sessionKey === undefined ? undefined : `session:${actor.sessionKey}`;
}
