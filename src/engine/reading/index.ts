/** The app reader: the router over an app's data and its host's tools, for router-first turns. */
export { createAppReader, DEFAULT_MAX_VALUES_PER_FIELD, DEFAULT_VALUES_TTL_SECONDS } from './app-reader.js';
export type { AppReader, AppReaderOptions } from './app-reader.js';
export { readEntries, MAX_READ_DEPTH } from './read-entries.js';
export { generatedVocabulary, MAX_VALUE_LENGTH } from './data-vocabulary.js';
