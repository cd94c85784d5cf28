import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseEngineSettings } from '../engine/index.js';
import { loadConfig, parseConfig, safeParseConfig, splitConfig } from './index.js';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
  vi.restoreAllMocks();
});

const configFile = (settings: Record<string, unknown>): string => {
  const folder = mkdtempSync(join(tmpdir(), 'plumb-ported-'));
  folders.push(folder);
  const file = join(folder, 'plumb.config.json');
  writeFileSync(file, JSON.stringify(settings));
  return file;
};

describe('settings a ported app brings', () => {
  it('reads summarizeAfter and maxRecentMessages as the token budgets, with a notice each naming the native setting', async () => {
    const notices: string[] = [];
    const loaded = await loadConfig({ path: configFile({ summarizeAfter: 40, maxRecentMessages: 20 }), onNotice: (notice) => notices.push(notice) });
    expect(loaded.config.compactionThreshold).toBe(0.313);
    expect(loaded.config.compactionTargetTokens).toBe(20_000);
    expect(notices).toEqual([
      'summarizeAfter: 40 is read as compactionThreshold: 0.313 (40 messages of about 1,000 tokens in a 128,000-token window); set compactionThreshold instead.',
      'maxRecentMessages: 20 is read as compactionTargetTokens: 20000 (20 messages of about 1,000 tokens); set compactionTargetTokens instead.',
    ]);
    expect(loaded.notices).toEqual(notices);
    expect('summarizeAfter' in loaded.config).toBe(false);
    // The engine takes the mapped pair as it is.
    expect(parseEngineSettings(splitConfig(loaded.config).engine).compactionTarget).toBe(20_000);
  });

  it("keeps the seed's own defaults valid: the recent part is held below where compaction starts", () => {
    const notices: string[] = [];
    const config = parseConfig({ summarizeAfter: 10, maxRecentMessages: 20, contextWindowTokens: 32_000 }, (notice) => notices.push(notice));
    expect(config.compactionThreshold).toBe(0.313);
    expect(config.compactionTargetTokens).toBe(8012);
    expect(notices[1]).toContain('capped below where compaction starts');
    expect(() => parseEngineSettings(splitConfig(config).engine)).not.toThrow();
  });

  it('lets a native setting win over its ported name, and says so', () => {
    const notices: string[] = [];
    const config = parseConfig({ summarizeAfter: 10, compactionThreshold: 0.5 }, (notice) => notices.push(notice));
    expect(config.compactionThreshold).toBe(0.5);
    expect(notices).toEqual(['summarizeAfter is not read: compactionThreshold is set, and it wins.']);
  });

  it('says a notice on stderr by default, one line', () => {
    const written: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      written.push(String(chunk));
      return true;
    });
    parseConfig({ maxRecentMessages: 5 });
    expect(written).toEqual(['plumb: notice: maxRecentMessages: 5 is read as compactionTargetTokens: 5000 (5 messages of about 1,000 tokens); set compactionTargetTokens instead.\n']);
  });

  it('refuses a count that is not a whole number of messages, naming the key and no other setting', () => {
    const result = safeParseConfig({ maxRecentMessages: 'twenty', summarizeAfter: 0 });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems.map((problem) => problem.key)).toEqual(['maxRecentMessages', 'summarizeAfter']);
    expect(result.problems[0]!.message).toMatch(/^Invalid value for 'maxRecentMessages': expected a whole number of messages above 0/);
    expect(result.problems.some((problem) => problem.message.includes('Did you mean'))).toBe(false);
  });
});
