import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { parse } from 'yaml';
import { describeWithPostgres } from '../../src/data/testing/postgres.js';
import { plumb } from '../support/cli.js';
import { describeWithRedis } from '../support/redis.js';

const folder = join(import.meta.dirname, '..', '..', 'examples', 'compose');

interface ComposeService {
  readonly image?: string;
  readonly command?: readonly string[];
  readonly environment?: Record<string, string>;
  readonly volumes?: readonly string[];
  readonly depends_on?: Record<string, { condition: string }>;
  readonly healthcheck?: { test: readonly string[] };
}

describeWithPostgres('examples/compose', (postgres) => {
  describeWithRedis('with Redis', (redis) => {
    const compose = parse(readFileSync(join(folder, 'docker-compose.yml'), 'utf8')) as { services: Record<string, ComposeService> };
    const config = readFileSync(join(folder, 'plumb.config.json'), 'utf8');

    it('names PostgreSQL, Redis and Plumb with N workers, health-checked, and gives Plumb every variable its configuration reads', () => {
      const { postgres: pg, redis: rd, plumb: server, cleanup } = compose.services;
      expect(pg?.image).toBe('postgres:15');
      expect(rd?.image).toBe('redis:7');
      for (const service of [pg, rd, server]) expect(service?.healthcheck?.test.length).toBeGreaterThan(0);
      expect(server?.command).toEqual(expect.arrayContaining(['serve', '--workers', '${PLUMB_WORKERS:-2}', '--config', '/config/plumb.config.json']));
      expect(server?.depends_on).toEqual({ postgres: { condition: 'service_healthy' }, redis: { condition: 'service_healthy' } });
      expect(server?.volumes).toContain('./plumb.config.json:/config/plumb.config.json:ro');
      expect(cleanup?.command?.join(' ')).toContain('cleanup --config /config/plumb.config.json');
      const read = [...config.matchAll(/\$\{([A-Z_]+)\}/g)].map((match) => match[1]!);
      expect(read.sort()).toEqual(['PLUMB_REDIS_URL', 'PLUMB_SESSION_SECRET', 'PLUMB_STORE_URL']);
      for (const service of [server, cleanup]) for (const name of read) expect(Object.keys(service?.environment ?? {})).toContain(name);
      expect(server?.environment?.PLUMB_STORE_URL).toMatch(/^postgres:\/\/plumb:.*@postgres:5432\/plumb$/);
      expect(server?.environment?.PLUMB_REDIS_URL).toBe('redis://redis:6379');
    });

    it('mounts a configuration that passes plumb check against a real PostgreSQL and Redis', async () => {
      const schema = await postgres.freshSchema();
      const store = new URL(postgres.url);
      store.searchParams.set('options', `-c search_path=${schema}`);
      const saved = { ...process.env };
      Object.assign(process.env, { PLUMB_STORE_URL: store.toString(), PLUMB_REDIS_URL: redis.url, PLUMB_SESSION_SECRET: 'a-session-secret-of-at-least-32-characters' });
      try {
        const checked = await plumb('check', '--config', join(folder, 'plumb.config.json'), '--demo', '--json');
        const report = JSON.parse(checked.stdout) as { ok: boolean; problems: unknown[]; notes: string[] };
        expect(report.problems).toEqual([]);
        expect(report.ok).toBe(true);
        expect(report.notes.join('\n')).toContain('pending (the first start applies them): 0001_journal, 0002_leases');
        expect(report.notes.join('\n')).toContain('rate limits and token budgets are shared');
        expect(checked.code).toBe(0);
      } finally {
        for (const key of ['PLUMB_STORE_URL', 'PLUMB_REDIS_URL', 'PLUMB_SESSION_SECRET']) {
          if (saved[key] === undefined) Reflect.deleteProperty(process.env, key);
          else process.env[key] = saved[key];
        }
      }
    });
  });
});
