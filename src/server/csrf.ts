import { timingSafeEqual } from 'node:crypto';
import { actorKey } from '../core/index.js';
import type { Actor } from '../core/index.js';
import type { Signer } from './signed-value.js';

export const csrfCookieName = 'plumb_csrf';
export const csrfHeaderName = 'x-csrf-token';

/**
 * Double-submit CSRF bound to the session: the token travels in a cookie and, copied by the
 * page's script, in the `X-CSRF-Token` header. A cross-site form can send the cookie but cannot
 * read it to set the header. The token is `<nonce>.<HMAC over the nonce and the actor's session>`
 * (`session:<key>`, or `user:<id>` for a signed-in user), which names neither: a pair issued to one
 * client fails on another's session, a planted cookie fails, and the page's script never sees the
 * session key its HttpOnly cookie hides.
 */
export function issueCsrfToken(signer: Signer, actor: Actor): string | undefined {
  const subject = actorKey(actor);
  if (subject === undefined) return undefined;
  const nonce = signer.randomId();
  return `${nonce}.${mac(signer, nonce, subject)}`;
}

export function csrfTokenValid(signer: Signer, actor: Actor, cookie: string | undefined, header: string | undefined): boolean {
  if (cookie === undefined || header === undefined || cookie === '' || header === '') return false;
  const a = Buffer.from(cookie);
  const b = Buffer.from(header);
  if (a.length !== b.length || !timingSafeEqual(a, b)) return false;
  const subject = actorKey(actor);
  const dot = cookie.indexOf('.');
  if (subject === undefined || dot <= 0) return false;
  const given = Buffer.from(cookie.slice(dot + 1));
  const expected = Buffer.from(mac(signer, cookie.slice(0, dot), subject));
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function mac(signer: Signer, nonce: string, subject: string): string {
  const signed = signer.sign(`csrf:${nonce}:${subject}`);
  return signed.slice(signed.lastIndexOf('.') + 1);
}
