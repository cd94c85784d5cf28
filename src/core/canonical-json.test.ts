import { describe, expect, it } from 'vitest';
import { canonicalHash, canonicalJson } from './index.js';

describe('canonicalJson', () => {
  it('sorts keys and writes numbers as RFC 8785 does', () => {
    expect(canonicalJson({ b: 1, a: [1e21, 0.1, 'é'], c: { z: null, y: true } })).toBe(
      '{"a":[1e+21,0.1,"é"],"b":1,"c":{"y":true,"z":null}}',
    );
  });

  it('gives the same hash whatever the key order', () => {
    expect(canonicalHash({ a: 1, b: 2 })).toBe(canonicalHash({ b: 2, a: 1 }));
    expect(canonicalHash({ a: 1 })).not.toBe(canonicalHash({ a: '1' }));
  });
});
