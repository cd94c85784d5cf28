import { z } from 'zod';
import type { Actor } from '../core/index.js';
import type { HostDefinition } from './host.js';

/** What the host's `authenticate` is shown of a request: the same on fastify, a fetch handler and the CLI. */
export interface AuthRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly ip: string;
}

/**
 * Who is asking, as the host's `authenticate` says: an actor (authenticated by a cookie or by
 * nothing the browser sends on its own, so CSRF applies), `{ actor, credential: 'token' }` for a
 * credential a cross-site page cannot make the browser send (a bearer token, an API key header),
 * or null for anonymous. Throw a PlumbError to refuse the request (401).
 */
export type AuthResult = Actor | { readonly actor: Actor; readonly credential: 'token' | 'cookie' } | null;
export type Authenticate = (request: AuthRequest) => AuthResult | Promise<AuthResult>;

const actorName = z.string().regex(/^[A-Za-z][A-Za-z0-9_.-]*$/, 'use letters, digits and _ . - (starting with a letter)').refine((name) => name !== 'anonymous', "'anonymous' is always there; pick another name");

/** A named actor of the configuration, picked with `--as NAME` (and by the console's sign-in when `consoleSignIn` is on). */
export const actorSettingSchema = z.strictObject({
  /** The user id permissions and thread ownership see. */
  id: z.string().min(1),
  roles: z.array(z.string().min(1)).default([]),
  displayName: z.string().min(1).optional(),
});

const hostSetting = z.custom<HostDefinition>((value) => typeof value === 'object' && value !== null && !Array.isArray(value), 'expected a module path or the object defineHost() returns');

/** The settings that say which app Plumb opens and where its data and journal live. */
export const appSettingsShape = {
  /** The host's definition: a module path whose default export is `defineHost({ … })`, or that object. Null: no app (only `--demo` opens one). */
  app: z.union([z.string().min(1), hostSetting]).nullable().default(null),
  /** The app's data: `sqlite:PATH`, a bare SQLite path, `:memory:`, or a `postgres://` URL. Relative paths are from the configuration's folder. */
  database: z.string().min(1).default('.plumb/app.sqlite'),
  /** The journal (threads, turns, confirmations): a SQLite path, `sqlite:PATH`, `:memory:` or a `postgres://` URL (several processes, docs/deployment.md); null: in the app's SQLite file, or `.plumb/chat.sqlite` when the data is on PostgreSQL. */
  store: z.string().min(1).nullable().default(null),
  /** Most connections of the journal's pool when `store` is a `postgres://` URL. Connections. */
  storeConnections: z.int().min(1).max(1000).default(10),
  /** Folder of the data migrations (`plumb migrate`), relative to the configuration's folder. */
  migrations: z.string().min(1).default('migrations'),
  /** Who is asking over HTTP: a function or a module path exporting `authenticate` (or a default function). Null: everyone is anonymous (or a console sign-in). */
  authenticate: z.union([z.custom<Authenticate>((value) => typeof value === 'function', 'expected a function'), z.string().min(1)]).nullable().default(null),
  /** Named actors for `--as NAME` on the command line (and the console's sign-in when `consoleSignIn` is true). */
  actors: z.record(actorName, actorSettingSchema).default({}),
  /** Let the console sign in as any of `actors` without a password. For development only. */
  consoleSignIn: z.boolean().default(false),
} as const;
