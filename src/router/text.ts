/**
 * Turn text as the router reads it: lower case, accents folded, same length as typed so that a
 * span found in the folded text cuts the value from the turn exactly as the person typed it.
 */

const FOLD: ReadonlyMap<string, string> = buildFoldTable();

function buildFoldTable(): Map<string, string> {
  const table = new Map<string, string>();
  for (let code = 0xc0; code <= 0x24f; code++) {
    const char = String.fromCharCode(code);
    const base = char.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
    if (base.length === 1) table.set(char, base);
  }
  return table;
}

/** Lower-cases and folds accents one code unit for one, so indices keep matching the typed turn. */
export function fold(text: string): string {
  // eslint-disable-next-line no-control-regex
  if (!/[^\u0000-\u007f]/.test(text)) return text.toLowerCase();
  let out = '';
  for (const char of text) {
    if (char.length !== 1) {
      out += char.length === 2 ? '  ' : ' '.repeat(char.length);
      continue;
    }
    const folded = FOLD.get(char);
    if (folded !== undefined) out += folded;
    else {
      const lower = char.toLowerCase();
      out += lower.length === 1 ? lower : char;
    }
  }
  return out;
}

/** Folds a vocabulary phrase: accents off, lower case, single spaces. */
export function foldPhrase(phrase: string): string {
  return fold(phrase.normalize('NFC')).replace(/\s+/g, ' ').trim();
}

export interface Token {
  /** Folded word. */
  readonly word: string;
  readonly start: number;
  readonly end: number;
}

const WORD = /[a-z0-9]+(?:[''][a-z]+)?/g;

export function tokenize(folded: string): Token[] {
  const tokens: Token[] = [];
  for (const match of folded.matchAll(WORD)) {
    tokens.push({ word: match[0], start: match.index, end: match.index + match[0].length });
  }
  return tokens;
}

/** A crude stem good enough for matching tool names and plurals: orders → order, events → event. */
export function stem(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 4 && (word.endsWith('oes') || word.endsWith('aes'))) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss') && !word.endsWith('us')) return word.slice(0, -1);
  return word;
}

/** Splits an identifier into folded words: `get_order`, `getOrder`, `calculus.derivative`. */
export function identifierWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter((part) => part.length > 0)
    .map((part) => part.toLowerCase());
}

/** Human words for an identifier: `charge_card` → `charge card`. */
export function humanize(name: string): string {
  return identifierWords(name).join(' ');
}

/** Joins items as people write lists: `a`, `a and b`, `a, b and c`. */
export function listWords(items: readonly string[], and: string): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} ${and} ${items[items.length - 1] ?? ''}`;
}
