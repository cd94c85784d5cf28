/**
 * The reading layer: data questions over an app's schema and values → plans. Its core is pure (the
 * data reader the router consults per clause); the app reader builds a router over an app with it.
 */
export { createAppReader, DEFAULT_MAX_VALUES_PER_FIELD, DEFAULT_VALUES_TTL_SECONDS } from './app-reader.js';
export type { AppReader, AppReaderOptions } from './app-reader.js';
export { actorContext } from './actor-row.js';
export type { ActorRow } from './actor-row.js';
export { readEntries, MAX_READ_DEPTH } from './read-entries.js';
export { generatedVocabulary, MAX_VALUE_LENGTH } from './data-vocabulary.js';
export { createDataReader } from './data-reader.js';
export { DATA_GRAMMAR } from './grammar.js';
export type { Comparator, DataGrammar } from './grammar.js';
