/**
 * A manager's catalogue metadata — the words a person says for it, its domain, when to use it and
 * what it is confused with — as one zod schema: the type and the check come from it alone.
 */
import { z } from 'zod';
import { managerNamePattern } from './naming.js';

const text = z.string().refine((value) => value.trim() !== '');
const alias = z.string().refine((value) => /[\p{L}\p{N}]/u.test(value));

export const managerCatalogSchema = z
  .object({
    /** Words a person says for the manager ("component", "item"): the router reads them, search ranks by them as by its name. */
    aliases: z.array(alias).readonly().optional(),
    /** The part of the business it belongs to: `billing`, `manufacturing`. */
    domain: text.optional(),
    /** When a question is about this manager: "the question concerns designed or purchased components". */
    useWhen: text.optional(),
    /** Managers it is easily confused with (by name; each must exist in the app). */
    distinguishFrom: z.array(z.string().regex(managerNamePattern)).readonly().optional(),
  })
  .strict();

/** A manager's catalogue metadata: it ranks and explains, and never grants or hides anything. */
export type ManagerCatalog = z.infer<typeof managerCatalogSchema>;

export const catalogKeys = Object.keys(managerCatalogSchema.shape) as readonly (keyof ManagerCatalog)[];

const keyProblems: Readonly<Record<keyof ManagerCatalog, string>> = {
  aliases: "catalog.aliases is a list of words a person says for the manager, such as ['component', 'item'].",
  domain: 'catalog.domain is a non-empty string.',
  useWhen: 'catalog.useWhen is a non-empty string.',
  distinguishFrom: "catalog.distinguishFrom is a list of manager names, such as ['OrderLine'].",
};

/** What is wrong with one catalogue entry, each problem once, prefixed with `where` (the manager's name). */
export function catalogProblems(where: string, value: unknown): string[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [`${where}: catalog is an object { ${catalogKeys.map((key) => `${key}?`).join(', ')} }.`];
  const parsed = managerCatalogSchema.safeParse(value);
  if (parsed.success) return [];
  const unknown = parsed.error.issues.flatMap((issue) => (issue.code === 'unrecognized_keys' ? issue.keys : []));
  const bad = new Set(parsed.error.issues.flatMap((issue) => (issue.code === 'unrecognized_keys' ? [] : [issue.path[0]])));
  return [
    ...unknown.map((key) => `${where}: unknown catalog key '${key}'. Keys: ${catalogKeys.join(', ')}.`),
    ...catalogKeys.filter((key) => bad.has(key)).map((key) => `${where}: ${keyProblems[key]}`),
  ];
}

interface Named {
  readonly name: string;
  readonly chatExposed: boolean;
  readonly catalog?: ManagerCatalog | undefined;
}

/**
 * Aliases that would make one word name two chat-exposed managers: an alias given to two of them,
 * or one manager's alias that is another's own name. The reader would have to pick one, so a host
 * keeps each word on one manager (and says the other in `distinguishFrom`).
 */
export function sharedAliasProblems(managers: readonly Named[], phrase: (name: string) => readonly string[]): string[] {
  const owners = new Map<string, { manager: string; how: string }>();
  const problems: string[] = [];
  const exposed = managers.filter((manager) => manager.chatExposed);
  for (const manager of exposed) for (const word of phrase(manager.name)) owners.set(normalWord(word), { manager: manager.name, how: 'its name' });
  for (const manager of exposed) {
    for (const alias of new Set((manager.catalog?.aliases ?? []).map(normalWord))) {
      const owner = owners.get(alias);
      if (owner !== undefined && owner.manager !== manager.name) {
        problems.push(`${manager.name}: catalog alias '${alias}' also names ${owner.manager} (${owner.how}), so the reader could not tell which one a question means. Keep the word on one of them, and name the other in distinguishFrom.`);
      } else owners.set(alias, { manager: manager.name, how: 'an alias' });
    }
  }
  return problems;
}

function normalWord(word: string): string {
  return word.trim().toLowerCase().replace(/\s+/g, ' ');
}
