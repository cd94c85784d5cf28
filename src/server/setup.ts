import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { createModuleLoader, parseConfig, settingFunction } from '../config/index.js';
import type { Authenticate, AuditLoggerFn, PermissionCallable, PlumbConfig } from '../config/index.js';
import { createAudit } from './audit.js';
import type { Audit } from './audit.js';
import type { PlumbChatOptions } from './options.js';
import { createMemoryRateLimitStore } from './rate-limit-store.js';
import { createRateLimiter } from './rate-limiter.js';
import type { RateLimiter } from './rate-limiter.js';
import type { SessionBudget } from './request-actor.js';
import { createSigner } from './signed-value.js';
import type { Signer } from './signed-value.js';

/** The options once resolved: settings parsed, module-path settings loaded, the signer, audit and limiter built. */
export interface PlumbSetup {
  readonly settings: PlumbConfig;
  readonly bodyLimit: number;
  readonly signer: Signer;
  readonly clock: () => number;
  readonly permission: PermissionCallable | undefined;
  readonly authenticate: Authenticate | undefined;
  readonly audit: Audit;
  readonly rateLimiter: RateLimiter;
  /** New anonymous sessions per client address (`rateLimit.sessions`). */
  readonly sessionBudget: SessionBudget;
}

export async function resolveSetup(options: PlumbChatOptions): Promise<PlumbSetup> {
  const settings = options.settings ?? parseConfig({});
  const clock = options.clock ?? Date.now;
  const load = createModuleLoader(options.cwd ?? process.cwd(), options.runningPlumb);
  const permission = settings.permission === null ? undefined : await settingFunction<PermissionCallable>(settings.permission, { load, key: 'permission', names: ['permission'], signature: 'a function (actor, scope) => boolean' });
  const configuredLogger = settings.audit.logger;
  const auditLogger = options.audit?.logger ?? (configuredLogger === null ? null : await settingFunction<AuditLoggerFn>(configuredLogger, { load, key: 'audit.logger', names: ['logger'], signature: 'a function (record) => void' }));
  const authenticate = options.authenticate ?? (settings.authenticate === null ? undefined : await settingFunction<Authenticate>(settings.authenticate, { load, key: 'authenticate', names: ['authenticate'], signature: 'a function (request) => actor | null' }));
  const rateLimitStore = options.rateLimitStore ?? createMemoryRateLimitStore();
  const sessions = createRateLimiter({ requests: settings.rateLimit.sessions, windowSeconds: settings.rateLimit.windowSeconds, tokens: null, inputTokens: null, outputTokens: null }, rateLimitStore, clock);
  return {
    settings,
    bodyLimit: options.bodyLimit ?? settings.bodyLimitBytes,
    signer: createSigner(options.secret ?? settings.sessionSecret ?? randomBytes(32)),
    clock,
    permission,
    authenticate,
    audit: createAudit({ ...settings.audit, logger: auditLogger, clock, ...(options.audit?.destination === undefined ? {} : { destination: options.audit.destination }) }),
    rateLimiter: options.rateLimiter ?? createRateLimiter(settings.rateLimit, rateLimitStore, clock),
    sessionBudget: (scope) => sessions.takeRequest(`sessions:${scope}`),
  };
}

export type Report = (error: unknown, context: { readonly source: string }) => void;

/** Unexpected failures go to the log and to the host's `onError`, never to the client. */
export function createReport(log: FastifyBaseLogger, onError: PlumbChatOptions['onError']): Report {
  return (error, context) => {
    log.error({ err: error, source: context.source }, 'chat failure');
    try {
      onError?.(error, context);
    } catch {
      // an error hook that throws must not take a turn down
    }
  };
}
