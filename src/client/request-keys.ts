/** A fresh request key: random, URL-safe, from the platform's crypto (browsers and Node 20 both have it). */
export function newRequestKey(): string {
  return `rk_${globalThis.crypto.randomUUID()}`;
}
