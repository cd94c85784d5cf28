import { randomUUID } from 'node:crypto';
import { PlumbError } from '../core/index.js';
import type { Catalogue } from './catalogue.js';
import { loadCatalogue } from './catalogue.js';
import { compileLanguage } from './compile.js';
import type { DataExplanation, DataReader } from './data-reader.js';
import { readTurn } from './planner.js';
import type { RouterCore } from './router-core.js';
import type { Rulebook, RulebookInput } from './rulebook.js';
import { loadRulebook } from './rulebook.js';
import type { Session, SessionOptions } from './session.js';
import { createSession } from './session.js';
import type { CatalogueEntry, Language, OnUnread, RouterContext, TurnPlan } from './types.js';
import type { Vocabulary } from './vocabulary.js';
import { asLanguage, loadVocabulary } from './vocabulary.js';
import type { VocabularyFile } from './vocabulary-types.js';

export interface RouterOptions {
  readonly catalogue: readonly CatalogueEntry[];
  /** A stable name for this catalogue; the SHA-256 of its canonical JSON (16 hex digits) where not given. */
  readonly catalogueVersion?: string;
  readonly rulebook?: RulebookInput | string;
  /** Vocabulary YAML text or its parsed object. */
  readonly vocabulary?: VocabularyFile | string;
  /** The host secret that signs confirmation tokens and the tool check's history. */
  readonly secret: string;
  /** Makes a session id where a session is given none (a random UUID by default). */
  readonly newSessionId?: () => string;
  /** Reads data questions before tool selection (`createDataReader` from the reading layer); none by default. */
  readonly dataReader?: DataReader;
}

export interface PlanOptions {
  readonly language?: string;
  readonly context?: RouterContext;
  readonly onUnread?: OnUnread;
  /** Receives each clause's data-reading explanation (`plumb route --explain`). */
  readonly explain?: (explanation: DataExplanation) => void;
}

export interface Router {
  readonly catalogueVersion: string;
  readonly vocabularyDigest: string;
  readonly catalogue: Catalogue;
  readonly rulebook: Rulebook;
  readonly vocabulary: Vocabulary;
  /** Reads one turn on its own. Never throws on the turn's text; throws only on a malformed `context.now` or language. */
  plan(turn: string, options?: PlanOptions): TurnPlan;
  /** Starts a conversation. */
  session(options?: SessionOptions): Session;
  /** @internal the compiled core, for sessions. */
  readonly core: RouterCore;
  readonly newSessionId: () => string;
}

export function createRouter(options: RouterOptions): Router {
  if (typeof options.secret !== 'string' || options.secret.length < 16) {
    throw new PlumbError('router_missing_secret', 'createRouter needs `secret`: a host secret of at least 16 characters, used to sign confirmation tokens and the check history.');
  }
  const catalogue = loadCatalogue(options.catalogue, options.catalogueVersion);
  const rulebook = loadRulebook(options.rulebook);
  const vocabulary = loadVocabulary(options.vocabulary);
  const core: RouterCore = Object.freeze({
    catalogue,
    rulebook,
    vocabulary,
    secret: options.secret,
    languages: {
      en: compileLanguage('en', vocabulary, catalogue, rulebook, options.dataReader),
      'pt-BR': compileLanguage('pt-BR', vocabulary, catalogue, rulebook, options.dataReader),
    },
  });
  const router: Router = {
    catalogueVersion: catalogue.version,
    vocabularyDigest: vocabulary.digest,
    catalogue,
    rulebook,
    vocabulary,
    core,
    newSessionId: options.newSessionId ?? (() => randomUUID()),
    plan(turn, planOptions = {}) {
      const language: Language = planOptions.language === undefined ? vocabulary.language : asLanguage(planOptions.language);
      return readTurn(core, String(turn), {
        language,
        context: planOptions.context ?? {},
        onUnread: planOptions.onUnread ?? rulebook.onUnread,
        rephrasesSpent: 0,
        index: 0,
        ...(planOptions.explain === undefined ? {} : { explain: planOptions.explain }),
      });
    },
    session(sessionOptions = {}) {
      return createSession(router, sessionOptions);
    },
  };
  return Object.freeze(router);
}
