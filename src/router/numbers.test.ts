import { describe, expect, it } from 'vitest';
import { findPortugueseNumbers, readPortugueseNumber } from './index.js';

describe('Portuguese numbers', () => {
  const table: readonly (readonly [string, string])[] = [
    ['duas mil trezentas e quarenta e sete', '2347'],
    ['mil quinhentos e vinte e três', '1523'],
    ['três milhões', '3000000'],
    ['322 milhões', '322000000'],
    ['1.234.567', '1234567'],
    ['40,00', '40.00'],
    ['sete vírgula cinco', '7.5'],
    ['duzentos vírgula zero três', '200.03'],
    ['uma dúzia', '12'],
    ['meia dúzia', '6'],
    ['10k', '10000'],
  ];
  for (const [text, value] of table) {
    it(`reads "${text}" as ${value}`, () => {
      expect(findPortugueseNumbers(text).map((n) => n.value)).toEqual([value]);
    });
  }

  it('keeps numbers written side by side apart', () => {
    expect(readPortugueseNumber('um vinte')).toBeNull();
    expect(readPortugueseNumber('vinte e trinta')).toBeNull();
    expect(findPortugueseNumbers('compre só uma vaca e sete ovelhas').map((n) => n.value)).toEqual(['1', '7']);
  });
});
