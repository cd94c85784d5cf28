import { PlumbError } from '../core/index.js';
import type { ManagerSpec } from './definition-types.js';
import { catalogProblems } from './manager-catalog.js';
import type { ManagerCatalog } from './manager-catalog.js';

/**
 * The catalogue a host gives beside its managers: an object keyed by manager name, or a function
 * called once per chat-exposed manager. Synchronous: the catalogue is part of the schema index,
 * built once when the app is defined; a host that fetches it does so before (a top-level await).
 */
export type CatalogSource = Readonly<Record<string, ManagerCatalog>> | ((manager: ManagerSpec) => ManagerCatalog | undefined);

/**
 * The managers with the host's catalogue laid over their own `catalog`: lists (`aliases`,
 * `distinguishFrom`) joined, each word once; `domain` and `useWhen` from the host's entry. Throws
 * `invalid_catalog` naming every problem: an entry for a manager the app lacks or does not expose,
 * a bad entry, a function that throws.
 */
export function withCatalog(managers: readonly ManagerSpec[], source: CatalogSource | undefined): readonly ManagerSpec[] {
  if (source === undefined) return managers;
  const problems: string[] = [];
  const entries = new Map<string, unknown>();
  if (typeof source === 'function') {
    for (const manager of managers) {
      if (manager.chatExposed !== true) continue;
      try {
        const entry = source(manager);
        if (entry !== undefined) entries.set(manager.name, entry);
      } catch (error) {
        problems.push(`The catalog function threw for ${manager.name}: ${(error as Error).message}`);
      }
    }
  } else if (typeof source === 'object' && source !== null && !Array.isArray(source)) {
    const known = new Map(managers.map((manager) => [manager.name, manager]));
    for (const [name, entry] of Object.entries(source)) {
      const manager = known.get(name);
      if (manager === undefined) problems.push(`catalog names '${name}', which is not a manager. Managers: ${[...known.keys()].join(', ')}.`);
      else if (manager.chatExposed !== true) problems.push(`catalog names ${name}, which is not chat-exposed, so its entry would never be shown: expose it (chatExposed: true) or drop the entry.`);
      else entries.set(name, entry);
    }
  } else {
    problems.push('catalog is an object keyed by manager name ({ Part: { aliases: [...] } }) or a function (manager) => entry | undefined.');
  }
  for (const [name, entry] of entries) {
    const found = catalogProblems(name, entry);
    if (found.length > 0 && typeof source === 'function') problems.push(...found.map((problem) => `${problem} (returned by the catalog function)`));
    else problems.push(...found);
  }
  if (problems.length > 0) throw new PlumbError('invalid_catalog', `Invalid catalog:\n- ${problems.join('\n- ')}`, { details: { problems } });
  return managers.map((manager) => {
    const entry = entries.get(manager.name) as ManagerCatalog | undefined;
    return entry === undefined ? manager : Object.freeze({ ...manager, catalog: merged(manager.catalog, entry) });
  });
}

function merged(own: ManagerCatalog | undefined, host: ManagerCatalog): ManagerCatalog {
  const join = (a: readonly string[] | undefined, b: readonly string[] | undefined): readonly string[] | undefined => (a === undefined && b === undefined ? undefined : Object.freeze([...new Set([...(a ?? []), ...(b ?? [])])]));
  const aliases = join(own?.aliases, host.aliases);
  const distinguishFrom = join(own?.distinguishFrom, host.distinguishFrom);
  const domain = host.domain ?? own?.domain;
  const useWhen = host.useWhen ?? own?.useWhen;
  return Object.freeze({
    ...(aliases === undefined ? {} : { aliases }),
    ...(domain === undefined ? {} : { domain }),
    ...(useWhen === undefined ? {} : { useWhen }),
    ...(distinguishFrom === undefined ? {} : { distinguishFrom }),
  });
}
