import { describe, expect, it } from 'vitest';
import { compactionLimit, outputBudget, safetyMargin, summaryBudget } from './context-budget.js';
import { parseEngineSettings } from '../settings.js';

describe('request budgets', () => {
  it('keeps a margin of 1% of the window, at most 4,096 tokens', () => {
    expect(safetyMargin({ contextWindowTokens: 8000 })).toBe(80);
    expect(safetyMargin({ contextWindowTokens: 128_000 })).toBe(1280);
    expect(safetyMargin({ contextWindowTokens: 1_000_000 })).toBe(4096);
  });

  it.each([
    // window, threshold, explicit output, capability, projected input → limit, output budget
    [128_000, 0.9, null, null, 10_000, 115_200, undefined],
    [128_000, 0.9, null, 16_384, 10_000, 115_200, 16_384],
    [128_000, 0.9, null, 16_384, 115_000, 115_200, 11_720],
    [128_000, 0.9, 32_000, 16_384, 10_000, 94_720, 32_000],
    [8000, 0.5, null, 6000, 2000, 4000, 5920],
  ] as const)('window %i at %f, maxOutputTokens %s, capability %s, input %i: compacts past %i, asks %s', (window, threshold, explicit, capability, input, limit, output) => {
    const settings = { contextWindowTokens: window, compactionThreshold: threshold, maxOutputTokens: explicit, modelMaxOutputTokens: capability };
    expect(compactionLimit(settings)).toBe(limit);
    expect(outputBudget(settings, input)).toBe(output);
  });

  it('asks a summary for its ceiling within what the model and the explicit ceiling allow, and for nothing when neither is known', () => {
    const base = { contextWindowTokens: 128_000, compactionThreshold: 0.9, summaryCeiling: 20_000 };
    expect(summaryBudget({ ...base, maxOutputTokens: null, modelMaxOutputTokens: null })).toBeUndefined();
    expect(summaryBudget({ ...base, maxOutputTokens: null, modelMaxOutputTokens: 16_384 })).toBe(16_384);
    expect(summaryBudget({ ...base, maxOutputTokens: 4000, modelMaxOutputTokens: 64_000 })).toBe(4000);
    expect(summaryBudget({ ...base, maxOutputTokens: null, modelMaxOutputTokens: 64_000 })).toBe(20_000);
  });

  it('derives the compaction target and the summary ceiling from the window, as the reference sizes them at 128k', () => {
    expect(parseEngineSettings({})).toMatchObject({ contextWindowTokens: 128_000, compactionTarget: 50_000, summaryCeiling: 20_000 });
    expect(parseEngineSettings({ contextWindowTokens: 8000 })).toMatchObject({ compactionTarget: 3200, summaryCeiling: 1280 });
    expect(parseEngineSettings({ compactionTargetTokens: 30_000, maxSummaryTokens: 4000 })).toMatchObject({ compactionTarget: 30_000, summaryCeiling: 4000 });
    // A large explicit output ceiling starts compaction earlier, and the derived target follows.
    expect(parseEngineSettings({ contextWindowTokens: 8000, maxOutputTokens: 5000 })).toMatchObject({ compactionTarget: 2336, summaryCeiling: 934 });
  });

  it.each([
    [{ maxOutputTokens: 128_000 }, 'maxOutputTokens'],
    [{ contextWindowTokens: 8000, compactionTargetTokens: 7500 }, 'compactionTargetTokens'],
    [{ contextWindowTokens: 8000, maxOutputTokens: 5000, compactionTargetTokens: 3000 }, 'compactionTargetTokens'],
    [{ compactionTargetTokens: 10_000, maxSummaryTokens: 10_000 }, 'maxSummaryTokens'],
    [{ compactionThreshold: 1.5 }, 'compactionThreshold'],
    [{ turnDeadlineSeconds: 0 }, 'turnDeadlineSeconds'],
  ] as const)('refuses %j naming %s', (input, name) => {
    expect(() => parseEngineSettings(input)).toThrowError(expect.objectContaining({ code: 'invalid_engine_settings', message: expect.stringContaining(name) }));
  });
});
