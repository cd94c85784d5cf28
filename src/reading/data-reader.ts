/** The reading layer's data reader, as the router's seam takes it: compiled per language, read per clause. */
import type { Catalogue, CompiledDataReader, DataOffer, DataReader, Language } from '../router/index.js';
import type { ReaderCondition } from './named-words.js';
import { namedPhrases } from './named-words.js';
import type { CompiledReads } from './compile-reads.js';
import { compileReads } from './compile-reads.js';
import { readClause } from './read-clause.js';
import { compileSchemaQuestions } from './schema-questions.js';

export interface DataReaderOptions {
  /** A manager's rows in words as the person writes them (accents kept): for the rephrase sentence. */
  readonly noun?: (manager: string, language: Language) => string | null;
  /** The host's named conditions, read as words ("overdue invoices"). */
  readonly conditions?: readonly ReaderCondition[];
  /** Turns to offer when a turn is not read (the host's examples this app reads), per language. */
  readonly examples?: (language: Language) => readonly string[];
}

/** A data reader for `createRouter({ dataReader })`: reads clauses about the catalogue's data-read entries. */
export function createDataReader(options: DataReaderOptions = {}): DataReader {
  return {
    compile({ language, words, catalogue }): CompiledDataReader | null {
      const reads = compileReads(language, words, catalogue, namedPhrases(language, (options.conditions ?? []).filter((c) => hasManager(catalogue, c.manager))));
      if (reads === null) return null;
      const schema = compileSchemaQuestions(reads);
      return { offer: offerOf(reads, options), read: (clause) => readClause(reads, schema, clause) };
    },
  };
}

/** What the rephrase sentence offers: the things there are to read (plural words), and a turn the reader reads. */
function offerOf(reads: CompiledReads, options: DataReaderOptions): DataOffer | null {
  const topics: string[] = [];
  for (const manager of reads.targets.keys()) {
    const words = reads.managerWords.get(manager) ?? [];
    const plural = options.noun?.(manager, reads.language) ?? words.find((w) => /s$/.test(w) && w !== words[0]) ?? words[0];
    if (plural !== undefined) topics.push(plural);
  }
  const first = topics[0];
  if (first === undefined) return null;
  const example = reads.language === 'pt-BR' ? `quais ${first} existem?` : `show me all ${first}`;
  const examples = options.examples?.(reads.language) ?? [];
  return { topics, example: examples[0] ?? example, ...(examples.length > 0 ? { examples: [...examples, example].slice(0, 3) } : {}) };
}

function hasManager(catalogue: Catalogue, manager: string): boolean {
  return [...catalogue.tools.values()].some((info) => info.entry.reads?.manager === manager);
}
