/**
 * Typos within a bounded edit distance of the vocabulary's data words: one edit (a letter added,
 * dropped, changed, or two neighbours swapped) for a word of four to seven letters, two from eight
 * letters on, and only to the one nearest data word — two as near, and the word stays unread. The
 * first letter is kept (or swapped with the second): a word one edit from a value at its first letter
 * is most often another word ("work" is not "York", "bold" not "cold"), seldom a slip.
 */

/** Edits allowed for a word of this length; 0: never corrected. */
export function typoBound(length: number): number {
  if (length < 4) return 0;
  return length < 8 ? 1 : 2;
}

/** Damerau–Levenshtein (optimal string alignment) distance, giving up past `limit`. */
export function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  const rows = a.length + 1;
  const cols = b.length + 1;
  let before = new Array<number>(cols).fill(0);
  let previous = Array.from({ length: cols }, (_, j) => j);
  for (let i = 1; i < rows; i++) {
    const current = new Array<number>(cols).fill(0);
    current[0] = i;
    let best = current[0];
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, (previous[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, (before[j - 2] as number) + 1);
      current[j] = value;
      if (value < best) best = value;
    }
    if (best > limit) return limit + 1;
    before = previous;
    previous = current;
  }
  return previous[cols - 1] as number;
}

/**
 * The one data word nearest `word` within the bound, or null: none, or two as near that mean different
 * things. `targets` maps each word to what it means (`w:` for a word of a longer value); of words
 * that mean the same ("material", "materiais"), the one ending as the typed word does is read.
 */
export function correctTypo(word: string, targets: ReadonlyMap<string, string>): string | null {
  if (targets.has(word)) return null;
  // A whole data word first; a word of a longer value ("w:…") only when no whole word is near.
  return nearestTarget(word, targets, false) ?? nearestTarget(word, targets, true);
}

function nearestTarget(word: string, targets: ReadonlyMap<string, string>, partial: boolean): string | null {
  const limit = typoBound(word.length);
  if (limit === 0) return null;
  let bestDistance = limit + 1;
  let nearest: string[] = [];
  for (const [target, meaning] of targets) {
    if (typoBound(target.length) === 0 || meaning.startsWith('w:') !== partial || !sameStart(word, target)) continue;
    const distance = editDistance(word, target, Math.min(limit, bestDistance));
    if (distance > limit || distance > bestDistance) continue;
    if (distance < bestDistance) {
      bestDistance = distance;
      nearest = [target];
    } else nearest.push(target);
  }
  if (nearest.length === 0 || new Set(nearest.map((t) => targets.get(t))).size > 1) return null;
  return nearest.find((t) => t.at(-1) === word.at(-1)) ?? (nearest[0] as string);
}

function sameStart(word: string, target: string): boolean {
  return word[0] === target[0] || (word[0] === target[1] && word[1] === target[0]);
}
