/** The demo's router files: its catalogue, rulebook and vocabulary, for `plumb route --demo` and the demo app. */
export { demoCatalogue } from './catalogue.js';
export { demoReadingRulebookYaml, demoRulebookYaml } from './rulebook.js';
export { demoVocabularyYaml } from './vocabulary.js';
