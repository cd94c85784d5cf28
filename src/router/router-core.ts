import type { Catalogue } from './catalogue.js';
import type { CompiledLanguage } from './compile.js';
import type { Rulebook } from './rulebook.js';
import type { Language } from './types.js';
import type { Vocabulary } from './vocabulary.js';

/** Everything a router reads turns with, compiled once; immutable. */
export interface RouterCore {
  readonly catalogue: Catalogue;
  readonly rulebook: Rulebook;
  readonly vocabulary: Vocabulary;
  readonly languages: Readonly<Record<Language, CompiledLanguage>>;
  readonly secret: string;
}
