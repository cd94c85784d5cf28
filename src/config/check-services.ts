import { isPlumbError } from '../core/index.js';
import { redactUrl } from './database-url.js';
import type { CheckProblem, ConnectMcpServers } from './check.js';
import type { PlumbConfig } from './schema.js';
import { storeLocation } from './store-location.js';

/**
 * `plumb check` on the services a configuration shares between processes: a journal on PostgreSQL
 * (connects, reads the applied migrations, changes nothing), Redis (connects and pings), each
 * within a bounded wait, and each MCP server whose tools the app takes (starts or reaches it and
 * lists its tools, through the MCP client the caller hands in). pg and ioredis load only when configured.
 */
export async function checkServices(config: PlumbConfig, root: string, problems: CheckProblem[], notes: string[], connectMcpServers: ConnectMcpServers | undefined): Promise<void> {
  let journal: ReturnType<typeof storeLocation> | undefined;
  // An unset store follows the database, which the app's own check reports on.
  if (config.store !== null) {
    try {
      journal = storeLocation(config, root);
    } catch (error) {
      if (!isPlumbError(error)) throw error;
      problems.push({ code: error.code, message: error.message });
    }
  }
  if (journal?.kind === 'postgres') {
    try {
      const { inspectPostgresJournal } = await import('../postgres/index.js');
      const report = await inspectPostgresJournal({ url: journal.url, max: 1 });
      const pending = report.pending.length === 0 ? 'none pending' : `pending (the first start applies them): ${report.pending.join(', ')}`;
      notes.push(`store: the PostgreSQL journal at ${report.target} answers; migrations applied: ${report.applied.length === 0 ? 'none' : report.applied.join(', ')}; ${pending}.`);
    } catch (error) {
      if (!isPlumbError(error)) throw error;
      problems.push({ code: error.code, message: `store: ${error.message}` });
    }
  }
  for (const [key, server] of Object.entries(config.mcpServers)) {
    if (connectMcpServers === undefined) {
      notes.push(`mcpServers.${key}: not reached (this check was given no MCP client).`);
      continue;
    }
    try {
      const connected = await connectMcpServers({ [key]: server }, { cwd: root });
      notes.push(`mcpServers.${key}: ${connected.tools.length} tool${connected.tools.length === 1 ? '' : 's'} (${connected.tools.map((tool) => tool.name).join(', ') || 'none'}).`);
      await connected.close();
    } catch (error) {
      if (!isPlumbError(error)) throw error;
      problems.push({ code: error.code, message: error.message });
    }
  }
  if (config.redis !== null) {
    const problem = await pingRedis(config.redis, config.redisTimeoutMs);
    if (problem === undefined) notes.push(`redis: ${redactUrl(config.redis)} answers; rate limits and token budgets are shared (when it cannot be reached: ${config.rateLimit.whenUnavailable === 'closed' ? 'refuse, rate_limit_unavailable' : 'admit, with a warning'}).`);
    else problems.push({ code: 'redis_unreachable', message: `redis: ${problem}` });
  }
}

async function pingRedis(url: string, timeoutMs: number): Promise<string | undefined> {
  const { Redis } = await import('ioredis');
  const client = new Redis(url, { lazyConnect: true, connectTimeout: timeoutMs, commandTimeout: timeoutMs, maxRetriesPerRequest: 0, enableOfflineQueue: false, retryStrategy: () => null });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.ping();
    return undefined;
  } catch (error) {
    return `${redactUrl(url)} did not answer within ${timeoutMs} ms (${error instanceof Error ? error.message : String(error)}). Check that Redis runs and that the URL, password and TLS scheme are right.`;
  } finally {
    client.disconnect();
  }
}
