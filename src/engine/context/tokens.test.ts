import { describe, expect, it } from 'vitest';
import { countTokens as o200k } from 'gpt-tokenizer/encoding/o200k_base';
import { countTokens as cl100k } from 'gpt-tokenizer/encoding/cl100k_base';
import { TokenEstimator, heuristicTokens, openAiEncodingOf } from './tokens.js';

const sample = 'How many stainless steel bolts (M8 × 40) are in the Lisbon warehouse? Responda em português, por favor.';

describe('token estimates', () => {
  it.each([
    ['gpt-4o-mini', 'o200k_base'],
    ['gpt-4.1', 'o200k_base'],
    ['o3-mini', 'o200k_base'],
    ['gpt-5', 'o200k_base'],
    ['openai/gpt-4o', 'o200k_base'],
    ['gpt-4-turbo', 'cl100k_base'],
    ['gpt-3.5-turbo', 'cl100k_base'],
    ['claude-sonnet-4-5', undefined],
    ['qwen3:4b', undefined],
    ['gemini-2.5-flash', undefined],
    ['scripted', undefined],
  ] as const)('%s counts with %s', (model, encoding) => {
    expect(openAiEncodingOf(model)).toBe(encoding);
  });

  it("counts an OpenAI-family model's text exactly as its encoding does", async () => {
    const modern = new TokenEstimator('gpt-4o');
    const older = new TokenEstimator('gpt-4');
    await modern.ready();
    await older.ready();
    expect(modern.text(sample)).toBe(o200k(sample));
    expect(older.text(sample)).toBe(cl100k(sample));
  });

  it('estimates any other model from the characters: four ASCII a token, any other character a token', async () => {
    const estimator = new TokenEstimator('claude-sonnet-4-5');
    await estimator.ready();
    expect(estimator.text('abcdefgh')).toBe(2);
    expect(estimator.text('ção')).toBe(3);
    expect(estimator.text(sample)).toBe(heuristicTokens(sample));
  });

  it('calibrates its estimates toward the input tokens the provider reports', () => {
    const estimator = new TokenEstimator('local-model');
    expect(estimator.calibrated(1000)).toBe(1000);
    // Too small a request says more about the provider's fixed overhead than about the estimate.
    estimator.observe(10, 500);
    expect(estimator.factor).toBe(1);
    estimator.observe(1000, 1500);
    expect(estimator.factor).toBeCloseTo(1.5);
    estimator.observe(1000, 1500);
    expect(estimator.calibrated(1000)).toBe(1500);
    estimator.observe(1000, 500);
    expect(estimator.factor).toBeCloseTo(1.5 * 0.7 + 0.5 * 0.3);
    // A report of nothing (a provider that reports no usage) changes nothing; a wild one is bounded.
    estimator.observe(1000, 0);
    expect(estimator.factor).toBeCloseTo(1.2);
    const wild = new TokenEstimator('local-model');
    wild.observe(1000, 1_000_000);
    expect(wild.factor).toBe(4);
  });
});
