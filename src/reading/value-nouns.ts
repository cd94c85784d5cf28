/**
 * Values as nouns: "list the vans", "how many electives are there?", "the suites", "quantas vans?".
 * A value of a class-like column — an enum, or a short text column named as a class of things
 * (`kind`, `type`, `category`, `status`, …) — said where no manager is named is the noun of the
 * question: its manager is the subject and the value picks the rows. The same word in two managers'
 * columns is two readings, never the first one found: the caller reads both for a list, else asks
 * nothing and leaves the turn unread.
 */
import type { CompiledReads } from './compile-reads.js';
import type { Question } from './question.js';

/** Names of text columns that hold a class of their rows, not a name of one. */
const CLASS_COLUMN = /(?:^|_|[a-z])(?:kind|type|category|categories|status|class|tier|level|grade|genre|role|sort|segment)$/i;

/** The managers a question's values make its subject, as nouns; empty when no value is said as one. */
export function valueNounManagers(q: Question, reads: CompiledReads): string[] {
  if (q.managers.length > 0 || q.values.length === 0 || q.ids !== null) return [];
  const nouns = new Set<string>();
  for (const word of q.values) for (const m of word.meanings) if (!word.negated && isClassColumn(reads, m.manager, m.field)) nouns.add(m.manager);
  // Every other value must be of the same manager's own rows ("open suites").
  return [...nouns].filter((manager) => q.values.every((word) => word.meanings.some((m) => m.manager === manager))).sort();
}

/** Whether `manager.field` holds a class of its rows: an enum, or a text column named so. */
export function isClassColumn(reads: CompiledReads, manager: string, field: string): boolean {
  const lookup = reads.targets.get(manager)?.spec.lookups.find((l) => l.through.length === 0 && l.field === field);
  if (lookup === undefined) return false;
  return lookup.type === 'enum' || ((lookup.type === 'string' || lookup.type === 'text') && CLASS_COLUMN.test(field));
}
