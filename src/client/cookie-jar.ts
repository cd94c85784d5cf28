/**
 * The cookies a server set, kept for the next requests: what a browser does on its own, for
 * clients outside one (Node, workers) that talk to a server relying on cookies (the anonymous
 * session, the CSRF pair). Names and values only: one server, whose attributes are its own.
 */
export interface CookieJar {
  header(): string | undefined;
  keep(response: Response): void;
}

export function createCookieJar(): CookieJar {
  const cookies = new Map<string, string>();
  return {
    header: () => (cookies.size === 0 ? undefined : [...cookies].map(([name, value]) => `${name}=${value}`).join('; ')),
    keep: (response) => {
      const headers = response.headers as Headers & { getSetCookie?: () => string[] };
      for (const line of headers.getSetCookie?.() ?? []) {
        const [pair = ''] = line.split(';');
        const at = pair.indexOf('=');
        if (at <= 0) continue;
        const name = pair.slice(0, at).trim();
        const value = pair.slice(at + 1).trim();
        if (/max-age=0\b|expires=thu, 01 jan 1970/i.test(line) || value === '') cookies.delete(name);
        else cookies.set(name, value);
      }
    },
  };
}
