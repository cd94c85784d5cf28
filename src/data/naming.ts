/** Name helpers shared by definitions, SQL and GraphQL. Pure functions. */

export function snakeCase(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .toLowerCase();
}

export function lowerFirst(name: string): string {
  return name.length === 0 ? name : name[0]!.toLowerCase() + name.slice(1);
}

export function upperFirst(name: string): string {
  return name.length === 0 ? name : name[0]!.toUpperCase() + name.slice(1);
}

/** English plural good enough for identifiers: Part → Parts, Category → Categories, Box → Boxes. */
export function plural(name: string): string {
  if (/[^aeiou]y$/i.test(name)) return `${name.slice(0, -1)}ies`;
  if (/(s|x|z|ch|sh)$/i.test(name)) return `${name}es`;
  return `${name}s`;
}

export const managerNamePattern = /^[A-Z][A-Za-z0-9]*$/;
export const memberNamePattern = /^[a-z][A-Za-z0-9]*$/;
export const sqlNamePattern = /^[A-Za-z_][A-Za-z0-9_]*$/;
