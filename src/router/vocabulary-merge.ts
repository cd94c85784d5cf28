import { parse as parseYaml } from 'yaml';
import { PlumbError } from '../core/index.js';
import type { VocabularyFile } from './vocabulary-types.js';

/**
 * Merges vocabulary files, later over earlier: sections merge key by key, word lists are joined
 * (each word once, in order), and a later scalar (a label, an example, a message, the language) wins.
 * YAML text is parsed first. The result is checked when a router loads it.
 */
export function mergeVocabularies(...files: readonly (VocabularyFile | string | undefined)[]): VocabularyFile {
  let merged: unknown = {};
  for (const file of files) {
    if (file === undefined) continue;
    merged = mergeValue(merged, typeof file === 'string' ? parseText(file) : file);
  }
  return merged as VocabularyFile;
}

function parseText(text: string): unknown {
  try {
    return parseYaml(text) ?? {};
  } catch (error) {
    throw new PlumbError('router_invalid_vocabulary', `The vocabulary is not valid YAML: ${(error as Error).message}`, { cause: error });
  }
}

function mergeValue(base: unknown, over: unknown): unknown {
  if (Array.isArray(base) && Array.isArray(over)) return [...new Set([...(base as unknown[]), ...(over as unknown[])])];
  if (isRecord(base) && isRecord(over)) {
    const out: Record<string, unknown> = { ...base };
    for (const [key, value] of Object.entries(over)) out[key] = key in out ? mergeValue(out[key], value) : value;
    return out;
  }
  return over === undefined ? base : over;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
