/**
 * Whether a WebSocket handshake's `Origin` may connect: with an allow-list, the origin must be on
 * it (`*` allows any); without one, its host must be the host the request was sent to. A missing
 * origin is refused unless `*` is listed — browsers always send one.
 */
export function originAllowed(origin: string | undefined, host: string | undefined, allowedOrigins: readonly string[] | null): boolean {
  if (allowedOrigins !== null && allowedOrigins.length > 0) {
    if (allowedOrigins.includes('*')) return true;
    if (origin === undefined) return false;
    const normalized = origin.toLowerCase().replace(/\/+$/, '');
    return allowedOrigins.some((allowed) => allowed.toLowerCase().replace(/\/+$/, '') === normalized);
  }
  if (origin === undefined || host === undefined) return false;
  try {
    return new URL(origin).host.toLowerCase() === host.toLowerCase();
  } catch {
    return false;
  }
}
