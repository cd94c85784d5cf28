import { createHmac, timingSafeEqual } from 'node:crypto';
import { nanoid } from 'nanoid';
import { setBounded } from '../core/index.js';

/**
 * Values signed with the server's secret (`value.signature`, HMAC-SHA-256, base64url), for session,
 * login and CSRF cookies: a client can keep them but not forge or alter them.
 */
export interface Signer {
  sign(value: string): string;
  /** The value when the signature is the server's, else undefined. */
  unsign(signed: string): string | undefined;
  /** A fresh random identifier: 32 URL-safe characters, 192 random bits. */
  randomId(): string;
}

/** Most signed strings remembered as verified (a client sends the same cookies on every request). */
const verifiedCacheSize = 10_000;

export function createSigner(secret: string | Buffer): Signer {
  const mac = (value: string): Buffer => createHmac('sha256', secret).update(value).digest();
  // Only strings whose signature checked out get in, so a hit proves what a fresh check would.
  const verified = new Map<string, string>();
  return {
    sign: (value) => `${value}.${mac(value).toString('base64url')}`,
    unsign(signed) {
      const known = verified.get(signed);
      if (known !== undefined) return known;
      const dot = signed.lastIndexOf('.');
      if (dot <= 0) return undefined;
      const value = signed.slice(0, dot);
      const given = Buffer.from(signed.slice(dot + 1), 'base64url');
      const expected = mac(value);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
      setBounded(verified, signed, value, verifiedCacheSize);
      return value;
    },
    // nanoid draws from a pooled buffer of secure random bytes: one system call per ~100 ids, not one per id (a few µs each here).
    randomId: () => nanoid(32),
  };
}

/** Reads one cookie from a `Cookie` header. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (header === undefined) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() !== name) continue;
    try {
      return decodeURIComponent(part.slice(eq + 1).trim());
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** A `Set-Cookie` value: path `/`, SameSite=Lax, HttpOnly unless said otherwise. */
export function serializeCookie(name: string, value: string, options: { readonly httpOnly?: boolean; readonly maxAgeSeconds?: number; readonly secure?: boolean } = {}): string {
  const parts = [`${name}=${encodeURIComponent(value)}`, 'Path=/', 'SameSite=Lax'];
  if (options.httpOnly !== false) parts.push('HttpOnly');
  if (options.maxAgeSeconds !== undefined) parts.push(`Max-Age=${options.maxAgeSeconds}`);
  if (options.secure === true) parts.push('Secure');
  return parts.join('; ');
}
