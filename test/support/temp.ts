import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';

/** A fresh temporary folder and a function that removes it. */
export function tempDir(prefix = 'plumb-test-'): { path: string; remove: () => void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/**
 * A fresh temporary folder for each test of the enclosing describe (or file), removed after the
 * test. Call it before the file's own hooks: after-hooks run in reverse, so the folder outlives
 * their `afterEach` (a store closed there is closed before its file goes).
 */
export function tempDirEach(prefix = 'plumb-test-'): { readonly path: string } {
  let current: string | undefined;
  beforeEach(() => {
    current = mkdtempSync(join(tmpdir(), prefix));
  });
  afterEach(() => {
    if (current !== undefined) rmSync(current, { recursive: true, force: true });
    current = undefined;
  });
  return {
    get path(): string {
      if (current === undefined) throw new Error(`tempDirEach('${prefix}'): the folder exists only while a test runs`);
      return current;
    },
  };
}

/** Writes `text` to `file` under `dir`, making its folders; returns the file's path. */
export function writeFileIn(dir: string, file: string, text: string): string {
  const path = join(dir, file);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return path;
}
