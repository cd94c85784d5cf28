import { describe, expect, it } from 'vitest';
import { boundResult } from './index.js';

const size = (value: unknown): number => Buffer.byteLength(JSON.stringify(value));

describe('boundResult', () => {
  it('passes a small result through unchanged, as a JSON copy', () => {
    const value = { when: new Date('2026-01-01T00:00:00.000Z'), list: [1, 2] };
    expect(boundResult(value, 1024)).toEqual({ value: { when: '2026-01-01T00:00:00.000Z', list: [1, 2] }, truncated: false });
  });

  it('wraps a cut array result as { data, truncated: true }', () => {
    const bounded = boundResult(Array.from({ length: 1000 }, (_, i) => ({ i })), 512);
    expect(bounded.truncated).toBe(true);
    expect(bounded.value).toMatchObject({ truncated: true });
    expect((bounded.value as { data: unknown[] }).data.length).toBeGreaterThan(0);
    expect(size(bounded.value)).toBeLessThanOrEqual(512);
  });

  it('cuts long strings when dropping array items is not enough, counting UTF-8 bytes', () => {
    const bounded = boundResult({ text: 'é'.repeat(5000) }, 600);
    expect(bounded.truncated).toBe(true);
    expect(size(bounded.value)).toBeLessThanOrEqual(600);
    expect((bounded.value as { text: string }).text.endsWith('…')).toBe(true);
  });

  it('throws for a value without a JSON form, so the dispatcher reports tool_failed', () => {
    expect(() => boundResult({ big: 1n }, 1024)).toThrow();
  });
});
