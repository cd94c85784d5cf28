import { describe, expect, it } from 'vitest';
import { correctTypo } from './typos.js';

describe('typos', () => {
  const targets = new Map([
    ['york', 'Staff.homeTown:York'],
    ['leeds', 'Staff.homeTown:Leeds'],
    ['materials', 'manager:Material'],
    ['ishiguro', 'w:Book.author:Kazuo Ishiguro'],
  ]);

  it('reads a slip within the bound as the nearest data word, its first letter kept or swapped', () => {
    expect(correctTypo('matrials', targets)).toBe('materials');
    expect(correctTypo('lees', targets)).toBe('leeds');
    expect(correctTypo('oyrk', targets)).toBe('york');
    expect(correctTypo('ishigro', targets)).toBe('ishiguro');
  });

  it('never reads a word one edit away at its first letter as a value ("work" is not "York")', () => {
    expect(correctTypo('work', targets)).toBeNull();
    expect(correctTypo('works', targets)).toBeNull();
    expect(correctTypo('needs', targets)).toBeNull();
  });
});
