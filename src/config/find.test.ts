import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDirEach } from '../../test/support/temp.js';
import { loadConfig } from '../index.js';
import { findConfigFile, interpolateEnvironment } from './index.js';

describe('finding and reading a configuration', () => {
  const dir = tempDirEach('plumb-find-');

  it('finds the nearest plumb.config.* from the working folder upward', () => {
    const nested = join(dir.path, 'a', 'b');
    mkdirSync(nested, { recursive: true });
    writeFileSync(join(dir.path, 'plumb.config.yaml'), 'port: 9000\n');
    expect(findConfigFile(undefined, nested)).toBe(join(dir.path, 'plumb.config.yaml'));
    writeFileSync(join(dir.path, 'a', 'plumb.config.mjs'), 'export default { port: 9001 };\n');
    expect(findConfigFile(undefined, nested)).toBe(join(dir.path, 'a', 'plumb.config.mjs'));
  });

  it('refuses two configuration files in one folder rather than guessing', () => {
    writeFileSync(join(dir.path, 'plumb.config.json'), '{}');
    writeFileSync(join(dir.path, 'plumb.config.ts'), 'export default {};\n');
    expect(() => findConfigFile(undefined, dir.path)).toThrow(expect.objectContaining({ code: 'config_ambiguous', message: expect.stringContaining('plumb.config.ts, plumb.config.json') }));
  });

  it('reads YAML and TypeScript with ${VAR} interpolation, and a .env that never overrides the environment', async () => {
    writeFileSync(join(dir.path, '.env'), 'PLUMB_FIND_TEST_PORT=9123\nPLUMB_FIND_TEST_HOST=0.0.0.0\n');
    process.env.PLUMB_FIND_TEST_HOST = '127.0.0.2';
    try {
      writeFileSync(join(dir.path, 'plumb.config.ts'), "import { defineConfig } from 'plumb-agent';\nconst port: number = Number('${PLUMB_FIND_TEST_PORT}'.length);\nexport default defineConfig({ host: '${PLUMB_FIND_TEST_HOST}', store: '${PLUMB_FIND_TEST_STORE:-:memory:}', ttlHours: port });\n");
      const { config, root } = await loadConfig({ cwd: dir.path });
      expect(root).toBe(dir.path);
      expect(config.host).toBe('127.0.0.2');
      expect(config.store).toBe(':memory:');
      expect(process.env.PLUMB_FIND_TEST_PORT).toBe('9123');
    } finally {
      delete process.env.PLUMB_FIND_TEST_HOST;
      delete process.env.PLUMB_FIND_TEST_PORT;
    }
  });

  it('keeps $${ literal and names the setting of a missing variable', () => {
    expect(interpolateEnvironment({ a: 'cost: $${price}', b: ['${HOME_NOT_SET_X:-none}'] }, {})).toEqual({ a: 'cost: ${price}', b: ['none'] });
    expect(() => interpolateEnvironment({ rateLimit: { requests: '${NOPE}' } }, {})).toThrow(expect.objectContaining({ code: 'config_env_missing', message: expect.stringContaining("Setting 'rateLimit.requests' uses ${NOPE}") }));
  });
});
