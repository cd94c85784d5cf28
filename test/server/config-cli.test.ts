import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { demoActors, createDemoApp } from '../../src/demo/index.js';
import { normalizeUrl } from '../../src/config/index.js';
import { createChatStack, parseConfig, plumbConfigSchema, safeParseConfig } from '../../src/server/index.js';
import { plumb } from '../support/cli.js';
import { tempDir } from '../support/temp.js';

const root = join(import.meta.dirname, '..', '..');
const script = join(root, 'test/server/fixtures/demo-script.json');

describe('configuration', () => {
  it('fills every default and composes the engine, tools and server settings', () => {
    const config = parseConfig({});
    expect(config).toMatchObject({ url: '/chat/', ttlHours: 24, maxResults: 200, maxRetriesPerMessage: 12, maxFailedCallsPerMessage: 3, rateLimit: { requests: 60, windowSeconds: 3600, tokens: null }, audit: { level: 'off', maxResultSize: 4096 } });
    expect(Object.isFrozen(config.rateLimit)).toBe(true);
  });

  it.each([
    ['chat', '/chat/'],
    ['/chat', '/chat/'],
    ['//api//chat//', '/api/chat/'],
    ['', '/'],
  ])('normalizes url %j to %j', (given, expected) => {
    expect(normalizeUrl(given)).toBe(expected);
    expect(parseConfig({ url: given }).url).toBe(expected);
  });

  it.each([
    [{ colour: 'red' }, /Unknown setting 'colour'\. Settings: actors, allowedMutations, /],
    [{ threadTailCacheItem: 5 }, /Unknown setting 'threadTailCacheItem'\. Did you mean 'threadTailCacheItems'\?/],
    [{ rateLimit: { request: 5 } }, /Unknown setting 'rateLimit.request'\. Did you mean 'rateLimit.requests'\?/],
    [{ rateLimit: { zzz: 5 } }, /Unknown setting 'rateLimit.zzz'\. Keys of 'rateLimit': anonymousBy, inputTokens, outputTokens, requests, /],
    [{ rateLimit: { windowSeconds: 0 } }, /'rateLimit.windowSeconds'/],
    [{ audit: { level: 'verbose' } }, /'audit.level'/],
    [{ allowedOrigins: ['app.example'] }, /'allowedOrigins.0'/],
    [{ port: 70000 }, /'port'/],
    [{ maxResults: -1 }, /'maxResults'/],
    [{ maxRetriesPerMessage: 'many' }, /'maxRetriesPerMessage'/],
  ])('refuses %j naming the key', (input, message) => {
    expect(() => parseConfig(input)).toThrow(message);
    const result = safeParseConfig(input);
    expect(result.ok).toBe(false);
  });

  it('is documented setting by setting in docs/configuration.md', () => {
    const docs = readFileSync(join(root, 'docs/configuration.md'), 'utf8');
    for (const key of Object.keys(plumbConfigSchema.shape)) expect(docs, key).toContain(`| \`${key}\``);
    for (const key of ['requests', 'windowSeconds', 'tokens', 'inputTokens', 'outputTokens', 'sessions']) expect(docs).toContain(`\`rateLimit.${key}\``);
    for (const key of ['enabled', 'level', 'logger', 'maxResultSize', 'redactFields']) expect(docs).toContain(`\`audit.${key}\``);
  });
});

describe('plumb check', () => {
  const dir = tempDir();
  afterAll(() => dir.remove());

  it('passes a valid configuration against the demo', async () => {
    const file = join(dir.path, 'ok.json');
    writeFileSync(file, JSON.stringify({ allowedMutations: ['createMaterial'], confirmMutations: ['createMaterial'], provider: `scripted:${script}` }));
    const run = await plumb('check', '--config', file, '--demo', '--db', ':memory:');
    expect(run.stdout).toMatch(/no problems/);
    expect(run.code).toBe(0);
  });

  it('reports every problem with a stable code and exits 1', async () => {
    const file = join(dir.path, 'bad.json');
    writeFileSync(file, JSON.stringify({ allowedMutations: ['createUnicorn'], confirmMutations: [], provider: './missing-provider.mjs' }));
    const run = await plumb('check', '--config', file, '--demo', '--db', ':memory:', '--json');
    expect(run.code).toBe(1);
    const codes = (JSON.parse(run.stdout) as { problems: { code: string }[] }).problems.map((problem) => problem.code);
    expect(codes).toEqual(['invalid_allow_list', 'provider_load_failed']);
  });

  it('reports invalid settings by key and, in the same run, a provider whose package is missing', async () => {
    writeFileSync(join(dir.path, 'needs-sdk.mjs'), "import 'plumb-test-absent-sdk';\nexport default class X {}\n");
    const file = join(dir.path, 'plumb.config.mjs');
    writeFileSync(file, `export default { provider: ${JSON.stringify(join(dir.path, 'needs-sdk.mjs'))}, audit: { level: 'loud' }, maxResults: 0 };\n`);
    const invalid = await plumb('check', '--config', file, '--json');
    expect(invalid.code).toBe(1);
    const problems = (JSON.parse(invalid.stdout) as { problems: { code: string; message: string }[] }).problems;
    expect(problems.map((problem) => problem.code)).toEqual(['invalid_config', 'invalid_config', 'provider_dependency_missing']);
    expect(problems.map((problem) => problem.message).join('\n')).toMatch(/maxResults.*audit\.level.*plumb-test-absent-sdk/s);
    const text = await plumb('check', '--config', file);
    expect(text.stdout.split('\n')[0]).toBe(`Checked ${file}`);
    expect(text.stdout).toContain('note: No app is configured (set app, or pass --demo)');
  });

  it('says config_not_found for a missing file', async () => {
    const run = await plumb('check', '--config', join(dir.path, 'nope.json'));
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/config_not_found/);
  });
});

describe('plumb cleanup', () => {
  it('deletes threads older than ttlHours and resolved or expired confirmations, and prints them', async () => {
    const dir = tempDir();
    try {
      const database = join(dir.path, 'chat.sqlite');
      const config = parseConfig({ store: database, provider: `scripted:${script}`, allowedMutations: ['createMaterial'], confirmMutations: ['createMaterial'], confirmTimeoutSeconds: 1, ttlHours: 1 });
      const app = await createDemoApp({ path: ':memory:' });
      const stack = await createChatStack({ app, config });
      const old = await stack.engine.ask({ actor: demoActors.bob, requestKey: 'r1', text: 'which materials?' });
      await stack.engine.ask({ actor: demoActors.alice, requestKey: 'r2', text: 'create material titanium' });
      await stack.close();
      await app.close();
      const oldThread = (old.events[0] as { thread_id: string }).thread_id;
      // Age bob's thread past the ttl.
      const Database = (await import('better-sqlite3')).default;
      const db = new Database(database);
      db.prepare('UPDATE plumb_threads SET updated_at = ? WHERE id = ?').run(Date.now() - 2 * 3_600_000, oldThread);
      db.prepare('UPDATE plumb_confirmations SET expires_at = ?').run(Date.now() - 1000);
      db.close();

      const file = join(dir.path, 'plumb.config.json');
      writeFileSync(file, JSON.stringify({ store: database, ttlHours: 1 }));
      const run = await plumb('cleanup', '--config', file, '--json');
      expect(run.code).toBe(0);
      const report = JSON.parse(run.stdout) as { threadsDeleted: string[]; confirmationsExpired: number; confirmationsDeleted: number };
      expect(report.threadsDeleted).toEqual([oldThread]);
      expect(report.confirmationsExpired).toBe(1);
      expect(report.confirmationsDeleted).toBe(1);
      const again = await plumb('cleanup', '--config', file);
      expect(again.stdout).toMatch(/threads deleted: +0/);
    } finally {
      dir.remove();
    }
  });
});
