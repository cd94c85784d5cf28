import type { FastifyInstance, FastifyRequest } from 'fastify';
import { anonymous } from '../core/index.js';
import type { Actor } from '../core/index.js';
import type { Authenticate } from '../config/index.js';
import type { LoginDirectory } from './console-routes.js';
import { loginCookieName, withSessionCookie } from './request-actor.js';
import { readCookie } from './signed-value.js';
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
 * session its cookie carries). No session is made here: `ensureSession` makes one where a
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

  instance.addHook('onRequest', async (request) => {
    // The host's credential first: a token it recognizes wins over a console sign-in cookie.
    const identified = authenticate === undefined ? null : await authenticate(request);
    let actor: Actor | undefined;
    if (identified !== null && 'actor' in identified) {
      actor = identified.actor;
      if (identified.credential === 'token') credentials.set(request, 'token');
    } else if (identified !== null) actor = identified;
    if (actor === undefined && login !== undefined) {
      const signedLogin = readCookie(request.headers.cookie, loginCookieName);
      const loginName = signedLogin === undefined ? undefined : signer.unsign(signedLogin);
      actor = loginName === undefined ? undefined : login.resolve(loginName);
    }
    request.actor = withSessionCookie(actor ?? anonymous, request, signer);
  });
}
