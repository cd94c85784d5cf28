import type { IncomingMessage } from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import { PlumbError, anonymous } from '../core/index.js';
import type { Actor } from '../core/index.js';

/** Who an MCP HTTP request is: from its headers, or a refusal (`PlumbError`, answered 401). */
export type McpAuthenticate = (request: IncomingMessage) => Actor | Promise<Actor>;

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * Bearer tokens to actors: a request with `Authorization: Bearer <token>` is the actor the token
 * names; one without is anonymous (who may read what anonymous visitors may); an unknown token is
 * refused with `invalid_token`, never treated as anonymous.
 */
export function bearerTokens(tokens: ReadonlyMap<string, Actor>): McpAuthenticate {
  const entries = [...tokens];
  return (request) => {
    const header = request.headers.authorization;
    if (header === undefined || header === '') return anonymous;
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    const token = match?.[1];
    const found = token === undefined ? undefined : entries.find(([known]) => sameText(known, token));
    if (found === undefined) throw new PlumbError('invalid_token', 'The bearer token names no actor. Check the token, or send none to act as an anonymous visitor.');
    return found[1];
  };
}
