import { createHash, createHmac } from 'node:crypto';
import canonicalizeModule from 'canonicalize';

// canonicalize ships CommonJS typings whose default export is the function itself.
const canonicalizeFn = canonicalizeModule as unknown as (value: unknown) => string | undefined;

/** RFC 8785 (JSON Canonicalization Scheme) text of a JSON value. */
export function canonicalJson(value: unknown): string {
  const text = canonicalizeFn(value);
  if (text === undefined) throw new TypeError('canonicalJson: value has no JSON representation');
  return text;
}

/** SHA-256 hex digest of a value's canonical JSON: the fingerprint used for hashes and digests. */
export function canonicalHash(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex');
}

/** HMAC-SHA-256 hex of a value's canonical JSON under a secret: binds tokens to exact data. */
export function canonicalHmac(secret: string | Buffer, value: unknown): string {
  return createHmac('sha256', secret).update(canonicalJson(value)).digest('hex');
}
