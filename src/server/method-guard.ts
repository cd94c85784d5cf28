import type { FastifyInstance, FastifyReply, HTTPMethods } from 'fastify';

/** The methods a Plumb route may answer; GET implies HEAD (fastify serves HEAD for every GET route). */
export type RouteMethod = 'GET' | 'POST';

const every = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const satisfies readonly HTTPMethods[];

/** Registers `405 method_not_allowed` (with a valid `Allow` header, and `note` after the message) for every other method of `url`. */
export type MethodGuard = (url: string, allowed: readonly RouteMethod[], note?: string) => void;

/**
 * The guard of one mount. `options: false` leaves OPTIONS alone: over a host's fastify instance a
 * CORS plugin may answer preflights for every path, and a route of Plumb's would shadow it.
 */
export function methodGuard(instance: FastifyInstance, scope: { readonly options: boolean }): MethodGuard {
  return (url, allowed, note) => {
    const allow = allowHeader(allowed);
    const served = new Set<string>(allow.split(', '));
    const refused = every.filter((method) => !served.has(method) && (scope.options || method !== 'OPTIONS'));
    instance.route({ method: refused, url, handler: (_request, reply) => sendMethodNotAllowed(reply, allow, note) });
  };
}

/** `GET, HEAD, POST` order, as RFC 9110 §10.2.1 lists methods: a comma-separated token list. */
export function allowHeader(allowed: readonly RouteMethod[]): string {
  const methods: string[] = [];
  if (allowed.includes('GET')) methods.push('GET', 'HEAD');
  if (allowed.includes('POST')) methods.push('POST');
  return methods.join(', ');
}

export function sendMethodNotAllowed(reply: FastifyReply, allow: string, note = ''): FastifyReply {
  return reply
    .status(405)
    .header('allow', allow)
    .send({ error: { code: 'method_not_allowed', message: `This route answers ${allow} only.${note === '' ? '' : ` ${note}`}` } });
}
