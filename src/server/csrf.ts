import { timingSafeEqual } from 'node:crypto';
import type { Signer } from './signed-value.js';

export const csrfCookieName = 'plumb_csrf';
export const csrfHeaderName = 'x-csrf-token';

/**
 * Double-submit CSRF: the token travels in a cookie and, copied by the page's script, in the
 * `X-CSRF-Token` header. A cross-site form can send the cookie but cannot read it to set the
 * header. Tokens are signed, so a cookie planted by a sibling subdomain is refused too.
 */
export function issueCsrfToken(signer: Signer): string {
  return signer.sign(signer.randomId());
}

export function csrfTokenValid(signer: Signer, cookie: string | undefined, header: string | undefined): boolean {
  if (cookie === undefined || header === undefined || cookie === '' || header === '') return false;
  const a = Buffer.from(cookie);
  const b = Buffer.from(header);
  if (a.length !== b.length || !timingSafeEqual(a, b)) return false;
  return signer.unsign(cookie) !== undefined;
}
