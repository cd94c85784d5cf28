/** The reading layer's data reader, as the router's seam takes it: compiled per language, read per clause. */
import type { CompiledDataReader, DataOffer, DataReader, Language } from '../router/index.js';
import type { CompiledReads } from './compile-reads.js';
import { compileReads } from './compile-reads.js';
import { readClause } from './read-clause.js';
import { compileSchemaQuestions } from './schema-questions.js';

export interface DataReaderOptions {
  /** A manager's rows in words as the person writes them (accents kept): for the rephrase sentence. */
  readonly noun?: (manager: string, language: Language) => string | null;
}

/** A data reader for `createRouter({ dataReader })`: reads clauses about the catalogue's data-read entries. */
export function createDataReader(options: DataReaderOptions = {}): DataReader {
  return {
    compile({ language, words, catalogue }): CompiledDataReader | null {
      const reads = compileReads(language, words, catalogue);
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
  return { topics, example: reads.language === 'pt-BR' ? `quais ${first} existem?` : `show me all ${first}` };
}
