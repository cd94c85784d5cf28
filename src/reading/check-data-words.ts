import { PlumbError } from '../core/index.js';
import type { VocabularyFile } from '../router/index.js';
import type { SchemaIndex } from '../tools/index.js';

/**
 * The host's data words must name what the assistant can see: a manager (`data.managers`), or a
 * field of one (`data.fields`, `data.values` as `Manager.field`). A name the app does not expose is
 * refused when the reader is built, naming the key and what there is, rather than silently unread.
 */
export function checkDataWords(file: VocabularyFile, index: SchemaIndex): void {
  const problems: string[] = [];
  const managers = index.entries.map((entry) => entry.manager);
  for (const [language, words] of Object.entries(file.languages ?? {})) {
    const data = words.data;
    if (data === undefined) continue;
    for (const name of Object.keys(data.managers ?? {})) {
      if (index.entry(name) === undefined) problems.push(`languages.${language}.data.managers: '${name}' is not a manager the assistant can see (managers: ${managers.join(', ')})`);
    }
    for (const section of ['fields', 'values'] as const) {
      for (const key of Object.keys(data[section] ?? {})) {
        const problem = fieldProblem(key, index);
        if (problem !== null) problems.push(`languages.${language}.data.${section}: ${problem}`);
      }
    }
  }
  if (problems.length > 0) {
    throw new PlumbError('router_invalid_vocabulary', `The vocabulary names data the app does not expose: ${problems.join('; ')}.`, { details: { problems } });
  }
}

function fieldProblem(key: string, index: SchemaIndex): string | null {
  const dot = key.indexOf('.');
  if (dot <= 0) return `'${key}' is not Manager.field`;
  const manager = key.slice(0, dot);
  const field = key.slice(dot + 1);
  const entry = index.entry(manager);
  if (entry === undefined) return `'${key}' names '${manager}', which is not a manager the assistant can see (managers: ${index.entries.map((item) => item.manager).join(', ')})`;
  if (!entry.fields.some((item) => item.name === field)) return `'${key}': ${manager} has no field '${field}' (fields: ${entry.fields.map((item) => item.name).join(', ')})`;
  return null;
}
