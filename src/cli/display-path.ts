import { relative } from 'node:path';

/** A path as a person at the terminal reads it: relative to where they are when it is below, else absolute. */
export function displayPath(path: string, cwd: string = process.cwd()): string {
  const near = relative(cwd, path);
  return near === '' ? '.' : near.startsWith('..') ? path : near;
}
