import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Actor } from '../core/index.js';
import { addressScope } from './client-address.js';
import type { RateDecision } from './rate-limiter.js';
import { readCookie, serializeCookie } from './signed-value.js';
import type { Signer } from './signed-value.js';

export const sessionCookieName = 'plumb_session';
export const loginCookieName = 'plumb_login';

/** The anonymous actor with the session its signed `plumb_session` cookie carries; any other actor as it is. */
export function withSessionCookie(actor: Actor, request: FastifyRequest, signer: Signer): Actor {
  if (actor.kind === 'user' || actor.sessionKey !== undefined) return actor;
  const signed = readCookie(request.headers.cookie, sessionCookieName);
  const existing = signed === undefined ? undefined : signer.unsign(signed);
  return existing === undefined ? actor : Object.freeze({ kind: 'anonymous', sessionKey: existing });
}

/** Takes one new session from the client address's budget (`rateLimit.sessions`). */
export type SessionBudget = (scope: string) => Promise<RateDecision>;

/**
 * Gives an anonymous request without a session a new one, set in a cookie on this reply — but
 * only on the routes that start a conversation (the CSRF token, the console page, the WebSocket)
 * and only while the client address has new sessions left; otherwise answers `rate_limited`. A
 * client that drops its cookies cannot mint sessions, and with them fresh budgets, without bound.
 */
export async function ensureSession(request: FastifyRequest, reply: FastifyReply, signer: Signer, budget: SessionBudget): Promise<boolean> {
  const actor = request.actor;
  if (actor.kind === 'user' || actor.sessionKey !== undefined) return true;
  const decision = await budget(addressScope(request.ip));
  if (!decision.allowed) {
    const refusal =
      decision.unavailable === true
        ? { code: 'rate_limit_unavailable', message: `The shared rate limits cannot be checked right now. Try again in ${decision.retryAfterSeconds} seconds.` }
        : { code: 'rate_limited', message: `Too many new sessions from your address. Keep the ${sessionCookieName} cookie you were given, or try again in ${decision.retryAfterSeconds} seconds.` };
    await reply.status(429).header('retry-after', String(decision.retryAfterSeconds)).send({ error: refusal });
    return false;
  }
  const key = signer.randomId();
  request.actor = Object.freeze({ kind: 'anonymous', sessionKey: key });
  appendSetCookie(reply, serializeCookie(sessionCookieName, signer.sign(key)));
  return true;
}

export function appendSetCookie(reply: FastifyReply, cookie: string): void {
  const current = reply.getHeader('set-cookie');
  const list = current === undefined ? [] : Array.isArray(current) ? current.map(String) : [String(current)];
  reply.header('set-cookie', [...list, cookie]);
}

/** What anonymous budgets are counted by (`rateLimit.anonymousBy`). */
export type AnonymousScope = 'address' | 'session';

/**
 * The rate-limit and token-budget scope: a user by id; anyone anonymous by the client address
 * (its /64 for IPv6), whatever session it holds, so that dropping cookies gains nothing — or, with
 * `session`, by its signed session (visitors behind one NAT then get a budget each; a client that
 * drops its cookie gets a new one, as many as `rateLimit.sessions` allows), and by its address
 * while it has none.
 */
export function rateScope(actor: Actor, ip: string, anonymousBy: AnonymousScope = 'address'): string {
  if (actor.kind === 'user') return `user:${actor.id}`;
  if (anonymousBy === 'session' && actor.sessionKey !== undefined) return `session:${actor.sessionKey}`;
  return addressScope(ip);
}
