/** Confirmation tokens: a person's yes to one write, bound by HMAC to the exact call, the session and the step. */
import type { JsonObject } from '../core/index.js';
import { canonicalHash, canonicalHmac, canonicalJson } from '../core/index.js';

export interface ConfirmationToken {
  readonly tokenId: string;
  readonly sessionId: string;
  readonly tool: string;
  readonly arguments: JsonObject;
  readonly catalogueVersion: string;
  /** The session read that made the plan, and the step in it. */
  readonly plan: number;
  readonly step: number;
  readonly mac: string;
}

type Unsigned = Omit<ConfirmationToken, 'mac' | 'tokenId'>;

export function issueToken(secret: string, fields: Unsigned): ConfirmationToken {
  const tokenId = canonicalHash({ ...fields, purpose: 'plumb.router.confirmation' }).slice(0, 32);
  const body = { ...fields, tokenId };
  return { ...body, mac: canonicalHmac(secret, body) };
}

/** Whether a token is one this host signed, unchanged. */
export function tokenIsGenuine(secret: string, token: ConfirmationToken): boolean {
  if (typeof token !== 'object' || token === null || typeof token.mac !== 'string') return false;
  try {
    const { mac, ...body } = token;
    return canonicalHmac(secret, body) === mac;
  } catch {
    return false;
  }
}

export function sameArguments(a: JsonObject, b: JsonObject): boolean {
  try {
    return canonicalJson(a) === canonicalJson(b);
  } catch {
    return false;
  }
}
