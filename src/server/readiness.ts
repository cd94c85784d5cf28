import type { FastifyInstance } from 'fastify';
import { isPlumbError } from '../core/index.js';
import type { Store } from '../store/index.js';
import type { MethodGuard } from './method-guard.js';

/** What `GET /readyz` checks, beyond the server being up (docs/protocol.md, "Readiness"). */
export interface ReadinessSources {
  /** The journal: it must answer a query, with none of this build's migrations pending. */
  readonly store?: Pick<Store, 'ping' | 'migrations'>;
  /** The shared counters and notices (`redis`): they must answer a PING. */
  readonly redis?: { ping(): Promise<unknown> };
  /** Settles once the engine's startup recovery is done (`engine.ready`). */
  readonly recovery?: Promise<unknown>;
}

/** A check's state: `ok`; `pending` (recovery under way, a migration not applied); `failed` (recovery failed, a journal newer than this build); `unreachable` (no answer within the bound). */
export type CheckState = 'ok' | 'pending' | 'failed' | 'unreachable';

/** How long one check may take before it counts as `unreachable`. Milliseconds. */
export const readinessTimeoutMs = 2000;

/**
 * `GET /readyz`: 200 `{ ready: true, checks }` when every check given is `ok`, else 503 with the
 * same shape, `ready: false` and `error: { code: 'not_ready', message }` naming the failed checks.
 * The checks run at each request, at once, each within `readinessTimeoutMs`; a check not given
 * (no Redis configured) is absent from `checks`. `/healthz` stays the liveness answer.
 */
export function registerReadiness(instance: FastifyInstance, sources: ReadinessSources, guard: MethodGuard): void {
  let recovery: CheckState = 'pending';
  sources.recovery?.then(
    () => (recovery = 'ok'),
    () => (recovery = 'failed'),
  );
  instance.get('/readyz', async (_request, reply) => {
    const checks: Record<string, CheckState> = {};
    const { store, redis } = sources;
    const [journal, migrations, shared] = await Promise.all([
      store === undefined ? undefined : bounded(store.ping().then(() => 'ok' as const)),
      store === undefined ? undefined : bounded(store.migrations().then((state) => (state.pending.length === 0 ? 'ok' : 'pending'))),
      redis === undefined ? undefined : bounded(redis.ping().then(() => 'ok' as const)),
    ]);
    if (journal !== undefined) checks.journal = journal;
    if (migrations !== undefined) checks.migrations = migrations;
    if (sources.recovery !== undefined) checks.recovery = recovery;
    if (shared !== undefined) checks.redis = shared;
    const failing = Object.entries(checks).filter(([, state]) => state !== 'ok');
    if (failing.length === 0) return { ready: true, checks };
    const message = `Not ready: ${failing.map(([name, state]) => `${name} ${state}`).join(', ')}. Send traffic elsewhere and ask again in a moment.`;
    return reply.status(503).send({ ready: false, checks, error: { code: 'not_ready', message } });
  });
  guard('/readyz', ['GET']);
}

/** The check's state, `unreachable` when it fails or takes longer than the bound; `failed` for a journal newer than this build. */
async function bounded(check: Promise<CheckState>): Promise<CheckState> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<CheckState>((resolve) => (timer = setTimeout(() => resolve('unreachable'), readinessTimeoutMs)));
  try {
    return await Promise.race([check.catch((error: unknown) => (isPlumbError(error) && error.code === 'store_schema_mismatch' ? 'failed' : 'unreachable')), late]);
  } finally {
    clearTimeout(timer);
  }
}
