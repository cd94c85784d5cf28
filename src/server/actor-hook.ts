import type { FastifyInstance, FastifyRequest } from 'fastify';
import { PlumbError, anonymous } from '../core/index.js';
import type { Actor } from '../core/index.js';
import type { Authenticate } from '../config/index.js';
import type { LoginDirectory } from './console-routes.js';
import { loginCookieName, withSessionCookie } from './request-actor.js';
import { readCookie, serializeCookie } from './signed-value.js';
import type { Signer } from './signed-value.js';

declare module 'fastify' {
  interface FastifyRequest {
    actor: Actor;
    /** How the actor was identified: `token` (a credential the browser never sends on its own: CSRF does not apply) or `cookie` (a cookie, or nothing). */
    credential: 'token' | 'cookie';
  }
}

/**
 * Decorates the instance's requests with `actor` and `credential` and sets them on each request:
 * the host's `authenticate` first, else the console's sign-in cookie, else anonymous (with the
 * session its cookie carries). A credential sent and known to no one (an `Authorization` header
 * the host's `authenticate` returned null for, a sign-in cookie that does not verify) is refused
 * with 401 `unauthenticated`, never served as anonymous. No session is made here: `ensureSession` makes one where a
 * conversation starts.
 */
export function identifyActors(instance: FastifyInstance, options: { readonly authenticate: Authenticate | undefined; readonly login: LoginDirectory | undefined; readonly signer: Signer }): void {
  const { authenticate, login, signer } = options;
  // Fastify 5 refuses an object as a request decorator (it would be shared by every request), so
  // the actor lives in a WeakMap behind a getter and a setter.
  const actors = new WeakMap<FastifyRequest, Actor>();
  instance.decorateRequest('actor', {
    getter(this: FastifyRequest): Actor {
      return actors.get(this) ?? anonymous;
    },
    setter(this: FastifyRequest, actor: Actor): void {
      actors.set(this, actor);
    },
  });

  const credentials = new WeakMap<FastifyRequest, 'token' | 'cookie'>();
  instance.decorateRequest('credential', {
    getter(this: FastifyRequest): 'token' | 'cookie' {
      return credentials.get(this) ?? 'cookie';
    },
  });

  instance.addHook('onRequest', async (request, reply) => {
    // The host's credential first: a token it recognizes wins over a console sign-in cookie.
    const identified = authenticate === undefined ? null : await authenticate(request);
    let actor: Actor | undefined;
    if (identified !== null && 'actor' in identified) {
      actor = identified.actor;
      if (identified.credential === 'token') credentials.set(request, 'token');
    } else if (identified !== null) actor = identified;
    // A credential sent and recognized by no one is refused, never served as anonymous.
    if (actor === undefined && sent(request.headers.authorization)) throw new PlumbError('unauthenticated', 'The Authorization header names no known user. Check the credential, or send none to act as an anonymous visitor.');
    const signedLogin = actor === undefined && login !== undefined ? readCookie(request.headers.cookie, loginCookieName) : undefined;
    if (signedLogin !== undefined) {
      const loginName = signer.unsign(signedLogin);
      actor = loginName === undefined ? undefined : login?.resolve(loginName);
      if (actor === undefined) {
        reply.header('set-cookie', serializeCookie(loginCookieName, '', { maxAgeSeconds: 0 }));
        throw new PlumbError('unauthenticated', 'The console sign-in cookie is not valid here (signed by another secret, or for a user no longer known); it was cleared: reload and sign in again.');
      }
    }
    request.actor = withSessionCookie(actor ?? anonymous, request, signer);
  });
}

function sent(header: string | undefined): boolean {
  return header !== undefined && header.trim() !== '';
}
