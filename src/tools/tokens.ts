/** Lowercase word tokens of a name or text: camelCase and every non-alphanumeric split. */
export function tokenize(text: string): string[] {
  const spaced = text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase();
  return spaced.split(/[^a-z0-9]+/).filter((token) => token !== '');
}

/** A search term's singular form: `ies` → `y`; a trailing `s` dropped when the term is longer than 3. */
export function singular(term: string): string {
  if (term.endsWith('ies') && term.length > 3) return `${term.slice(0, -3)}y`;
  if (term.endsWith('s') && term.length > 3) return term.slice(0, -1);
  return term;
}

/** `OrderLine` → `order_line`. */
export function snakeName(name: string): string {
  return tokenize(name).join('_');
}
