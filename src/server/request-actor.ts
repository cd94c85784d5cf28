import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Actor } from '../core/index.js';
import { readCookie, serializeCookie } from './signed-value.js';
import type { Signer } from './signed-value.js';

export const sessionCookieName = 'plumb_session';
export const loginCookieName = 'plumb_login';

/**
 * An anonymous actor always leaves with a session key: the one its signed `plumb_session` cookie
 * carries, or a fresh one whose cookie is set on this reply (before any byte of a stream).
 */
export function withSession(actor: Actor, request: FastifyRequest, signer: Signer): { actor: Actor; setCookie: string | undefined } {
  if (actor.kind === 'user' || actor.sessionKey !== undefined) return { actor, setCookie: undefined };
  const signed = readCookie(request.headers.cookie, sessionCookieName);
  const existing = signed === undefined ? undefined : signer.unsign(signed);
  if (existing !== undefined) return { actor: Object.freeze({ kind: 'anonymous', sessionKey: existing }), setCookie: undefined };
  const key = signer.randomId();
  return { actor: Object.freeze({ kind: 'anonymous', sessionKey: key }), setCookie: serializeCookie(sessionCookieName, signer.sign(key)) };
}

export function appendSetCookie(reply: FastifyReply, cookie: string): void {
  const current = reply.getHeader('set-cookie');
  const list = current === undefined ? [] : Array.isArray(current) ? current.map(String) : [String(current)];
  reply.header('set-cookie', [...list, cookie]);
}

/** The rate-limit scope: user id, else session key, else client address. */
export function rateScope(actor: Actor, ip: string): string {
  if (actor.kind === 'user') return `user:${actor.id}`;
  if (actor.sessionKey !== undefined) return `session:${actor.sessionKey}`;
  return `ip:${ip}`;
}
