/**
 * Names from SQL identifiers: words, singular English nouns, camelCase and PascalCase. Pure and
 * deliberately modest: a name it gets wrong is one line for the developer to change.
 */

/** The words of an identifier: split at underscores and at lower-to-upper steps (`OrderLines` → order, lines). */
export function words(identifier: string): string[] {
  return identifier
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .split(/[^A-Za-z0-9]+/)
    .filter((word) => word !== '')
    .map((word) => word.toLowerCase());
}

function upperFirst(word: string): string {
  return word.length === 0 ? word : word[0]!.toUpperCase() + word.slice(1);
}

export function camelCase(identifier: string): string {
  return words(identifier).map((word, index) => (index === 0 ? word : upperFirst(word))).join('');
}

const irregular: Readonly<Record<string, string>> = {
  people: 'person', men: 'man', women: 'woman', children: 'child', mice: 'mouse', geese: 'goose',
  feet: 'foot', teeth: 'tooth', oxen: 'ox', criteria: 'criterion', phenomena: 'phenomenon',
  indices: 'index', matrices: 'matrix', vertices: 'vertex', appendices: 'appendix',
  analyses: 'analysis', diagnoses: 'diagnosis', theses: 'thesis', crises: 'crisis', hypotheses: 'hypothesis', syntheses: 'synthesis', parentheses: 'parenthesis',
  wolves: 'wolf', knives: 'knife', lives: 'life', leaves: 'leaf', shelves: 'shelf', halves: 'half', wives: 'wife', thieves: 'thief', loaves: 'loaf', calves: 'calf', selves: 'self', scarves: 'scarf',
  heroes: 'hero', potatoes: 'potato', tomatoes: 'tomato', echoes: 'echo', vetoes: 'veto',
  quizzes: 'quiz', caches: 'cache', niches: 'niche', headaches: 'headache', avalanches: 'avalanche',
  menus: 'menu', gurus: 'guru', emus: 'emu',
  movies: 'movie', cookies: 'cookie', pies: 'pie', ties: 'tie', lies: 'lie', zombies: 'zombie', rookies: 'rookie', selfies: 'selfie', calories: 'calorie', hoodies: 'hoodie', smoothies: 'smoothie', brownies: 'brownie', goodies: 'goodie', freebies: 'freebie',
};

/** Nouns that are the same in the singular, or already singular though they end in -s. */
const unchanged = new Set(['data', 'metadata', 'news', 'series', 'species', 'information', 'equipment', 'feedback', 'software', 'hardware', 'staff', 'media', 'sheep', 'fish', 'deer', 'aircraft', 'analytics', 'statistics', 'physics', 'mathematics', 'economics', 'politics', 'gas', 'canvas', 'atlas', 'alias', 'bias', 'lens', 'chassis']);

/** The singular of one lower-case English word: `lines` → line, `categories` → category, `status` → status. */
export function singular(word: string): string {
  const known = irregular[word];
  if (known !== undefined) return known;
  if (unchanged.has(word) || word.length <= 2) return word;
  if (/(ss|us|is)$/.test(word)) return word; // address, status, analysis
  if (/[^aeiou]ies$/.test(word)) return `${word.slice(0, -3)}y`;
  if (/(sses|[^aeiou]uses|xes|ches|shes|zzes)$/.test(word)) return word.slice(0, -2);
  if (/s$/.test(word)) return word.slice(0, -1);
  return word;
}

/** A table name as a manager name: the last word singular, PascalCase (`order_lines` → OrderLine). */
export function managerBaseName(table: string): string {
  const parts = words(table);
  const last = parts.pop();
  if (last === undefined) return '';
  return [...parts, singular(last)].map(upperFirst).join('');
}
