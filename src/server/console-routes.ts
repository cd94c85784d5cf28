import { readFileSync } from 'node:fs';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Actor } from '../core/index.js';
import { clientModules } from './console-client.js';
import { csrfCookieName, csrfHeaderName, csrfTokenValid, issueCsrfToken } from './csrf.js';
import type { MethodGuard } from './method-guard.js';
import { sendError } from './reply-error.js';
import { ensureSession, loginCookieName } from './request-actor.js';
import type { SessionBudget } from './request-actor.js';
import { readCookie, serializeCookie } from './signed-value.js';
import type { Signer } from './signed-value.js';

/** Users the console can sign in as (the demo's alice and bob); a real host brings its own login. */
export interface LoginDirectory {
  readonly names: readonly string[];
  resolve(name: string): Actor | undefined;
}

/** What the console's settings panel shows. */
export interface ConsoleInfo {
  readonly provider?: string;
  readonly model?: string;
  /** Whether turns are read by the router first. */
  readonly router?: 'on' | 'off';
  /**
   * Questions offered on an empty conversation and after an answer the router could not read; one
   * with a `language` switches the console's reading language when it is asked.
   */
  readonly examples?: readonly (string | ConsoleExample)[];
}

/** An example question and the language the router reads it in. */
export interface ConsoleExample {
  readonly text: string;
  readonly language?: string;
}

const files = {
  'index.html': 'text/html; charset=utf-8',
  'console.css': 'text/css; charset=utf-8',
  'console.js': 'text/javascript; charset=utf-8',
  'console-transport.js': 'text/javascript; charset=utf-8',
} as const;

type ConsoleFiles = Record<keyof typeof files, string>;

/** The console's static files, read once from `src/console/` (no build step); undefined when absent. */
function loadFiles(): ConsoleFiles | undefined {
  const dir = new URL('../console/', import.meta.url);
  try {
    return Object.fromEntries(Object.keys(files).map((name) => [name, readFileSync(new URL(name, dir), 'utf8')])) as ConsoleFiles;
  } catch {
    return undefined;
  }
}

export function registerConsole(
  fastify: FastifyInstance,
  options: {
    /** The prefix the console is mounted under ('' at the root); its page and script point their own URLs there. */
    readonly base: string;
    readonly signer: Signer;
    readonly sessionBudget: SessionBudget;
    readonly guard: MethodGuard;
    /** The chat routes as the browser reaches them (prefix included). */
    readonly chatUrl: string;
    readonly chatEnabled: boolean;
    /** The chat serves live thread views (`GET {chat}threads/:id/view/`, `subscribe` frames). */
    readonly viewsEnabled: boolean;
    readonly bodyLimitBytes: number;
    readonly info: ConsoleInfo;
    readonly login?: LoginDirectory;
  },
): void {
  const loaded = loadFiles();
  if (loaded === undefined) {
    // A build that did not copy src/console/: say so instead of failing the whole server.
    fastify.get('/console/', (_request, reply) =>
      reply.status(404).send({ error: { code: 'not_found', message: 'The console files (index.html, console.css, console.js, console-transport.js) are not next to this build; copy src/console/ beside the server folder.' } }),
    );
    return;
  }
  const content = options.base === '' ? loaded : underBase(loaded, options.base);
  const { signer } = options;
  const page = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    // The page's CSRF token is bound to the session, so an anonymous visitor's session starts here.
    if (!(await ensureSession(request, reply, signer, options.sessionBudget))) return reply;
    const token = issueCsrfToken(signer, request.actor) ?? '';
    reply.header('set-cookie', [...existingCookies(reply), serializeCookie(csrfCookieName, token)]);
    reply.header('content-security-policy', "default-src 'self'; connect-src 'self' ws: wss:; style-src 'self'; script-src 'self'; img-src 'self' data:");
    return reply.type(files['index.html']).send(content['index.html'].replace('{{CSRF}}', token).replace('{{CHAT_URL}}', options.chatUrl));
  };
  fastify.get('/console/', page);
  options.guard('/console/', ['GET']);
  for (const name of ['console.css', 'console.js', 'console-transport.js'] as const) {
    fastify.get(`/console/${name}`, (_request, reply) => reply.type(files[name]).header('cache-control', 'no-cache').send(content[name]));
    options.guard(`/console/${name}`, ['GET']);
  }

  // `plumb-agent/client`, which the console's script imports for its HTTP and SSE calls.
  const client = clientModules();
  fastify.get<{ Params: { file: string } }>('/console/client/:file', async (request, reply) => {
    const module = client === undefined ? { kind: 'unavailable' as const, message: 'The client modules (plumb/client) are not next to this build; build the package (npm run build).' } : await client.read(request.params.file);
    if (module.kind === 'missing') return sendError(reply, 404, 'not_found', 'No module of the client has this name.');
    if (module.kind === 'unavailable') return sendError(reply, 404, 'not_found', module.message);
    return reply.type('text/javascript; charset=utf-8').header('cache-control', 'no-cache').send(module.text);
  });
  options.guard('/console/client/:file', ['GET']);

  fastify.get('/console/session', (request) => ({
    actor: describe(request.actor),
    users: options.login?.names ?? [],
    chat_url: options.chatUrl,
    chat_enabled: options.chatEnabled,
    views_enabled: options.viewsEnabled,
    body_limit_bytes: options.bodyLimitBytes,
    provider: options.info.provider ?? null,
    model: options.info.model ?? null,
    router: options.info.router ?? 'off',
    examples: (options.info.examples ?? []).map((example) => (typeof example === 'string' ? { text: example, language: null } : { text: example.text, language: example.language ?? null })),
  }));
  options.guard('/console/session', ['GET']);

  const csrfOk = (request: FastifyRequest): boolean => {
    const header = request.headers[csrfHeaderName];
    return csrfTokenValid(signer, request.actor, readCookie(request.headers.cookie, csrfCookieName), Array.isArray(header) ? header[0] : header);
  };
  fastify.post('/console/login', async (request, reply) => {
    if (!csrfOk(request)) return reply.status(403).send({ error: { code: 'csrf_failed', message: 'Reload the console: its CSRF token is missing or stale.' } });
    const body = request.body ?? {};
    if (typeof body !== 'object' || Array.isArray(body)) return reply.status(400).send({ error: { code: 'bad_request', message: 'The body is { "user": NAME } (or { "user": null } to sign out).' } });
    const unknown = Object.keys(body).filter((key) => key !== 'user');
    if (unknown.length > 0) {
      return reply.status(400).send({ error: { code: 'bad_request', message: `Unknown field${unknown.length === 1 ? '' : 's'} ${unknown.map((key) => `'${key}'`).join(', ')}: the body is { "user": NAME } (or { "user": null } to sign out).` } });
    }
    const user = (body as { user?: unknown }).user;
    if (user === null || user === 'anonymous' || user === undefined) {
      reply.header('set-cookie', serializeCookie(loginCookieName, '', { maxAgeSeconds: 0 }));
      return { actor: { kind: 'anonymous' } };
    }
    const actor = typeof user === 'string' ? options.login?.resolve(user) : undefined;
    if (actor === undefined || typeof user !== 'string') {
      return reply.status(401).send({ error: { code: 'unauthenticated', message: `Unknown user. Known users: ${(options.login?.names ?? []).join(', ') || '(none)'}.` } });
    }
    reply.header('set-cookie', serializeCookie(loginCookieName, signer.sign(user)));
    return { actor: describe(actor) };
  });
  options.guard('/console/login', ['POST']);
}

/**
 * The console's files name their own URLs from the root (`"/console/…` in the page, `'/console/…`
 * in the script); under a prefix they are rewritten once, here.
 */
function underBase(loaded: ConsoleFiles, base: string): ConsoleFiles {
  return {
    'index.html': loaded['index.html'].replaceAll('"/console/', `"${base}/console/`),
    'console.css': loaded['console.css'],
    'console.js': loaded['console.js'].replaceAll("'/console/", `'${base}/console/`),
    'console-transport.js': loaded['console-transport.js'].replaceAll("'/console/", `'${base}/console/`),
  };
}

function existingCookies(reply: FastifyReply): string[] {
  const current = reply.getHeader('set-cookie');
  return current === undefined ? [] : Array.isArray(current) ? current.map(String) : [String(current)];
}

function describe(actor: Actor): Record<string, unknown> {
  return actor.kind === 'user' ? { kind: 'user', id: actor.id, roles: actor.roles, display_name: actor.displayName ?? actor.id } : { kind: 'anonymous' };
}
