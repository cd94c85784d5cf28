/** Escapes `%`, `_` and `\` for a LIKE pattern written with `escape '\'`, so the value matches literally. */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (char) => `\\${char}`);
}
