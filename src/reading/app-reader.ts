/**
 * The app reader: a router over an app's data and its host's tools. Its catalogue is the host tools,
 * the model's other tools (check-only) and one data read per exposed manager; its vocabulary is
 * generated from the schema and the data's distinct values, with the host's file merged over it.
 * Values are re-read after a write and on a TTL; a refresh that changes no word keeps the router.
 */
import { canonicalHash } from '../core/index.js';
import type { Actor, JsonObject } from '../core/index.js';
import type { ActorRow } from './actor-row.js';
import { actorContext, checkActorRow } from './actor-row.js';
import type { ReaderCondition } from './named-words.js';
import type { CatalogueEntry, Language, Router, RulebookInput, VocabularyFile } from '../router/index.js';
import { catalogueFromTools, createRouter, loadVocabulary, mergeVocabularies } from '../router/index.js';
import type { AppLabels } from './app-labels.js';
import { appLabels } from './app-labels.js';
import { createDataReader } from './data-reader.js';
import type { ChatApp, SchemaIndex, Tool, ToolSettingsInput } from '../tools/index.js';
import { createChatTools, renderTool } from '../tools/index.js';
import type { DataValues } from './data-vocabulary.js';
import { generatedVocabulary, valueFields, wordValues } from './data-vocabulary.js';
import { checkDataWords } from './check-data-words.js';
import type { ReadTool } from './read-entries.js';
import { readEntries } from './read-entries.js';

export interface AppReaderOptions {
  readonly app: ChatApp;
  /** Planned by the generic router (rendered, then catalogue entries). */
  readonly hostTools: readonly Tool[];
  /** What the model may call: entries the check knows but the router never plans (host and read tools are skipped). */
  readonly modelTools?: readonly Tool[];
  /** The host's vocabulary file (YAML or parsed), merged over the generated words. */
  readonly vocabulary?: VocabularyFile | string;
  readonly rulebook?: RulebookInput | string;
  /** Signs confirmation tokens and the check history (at least 16 characters). */
  readonly secret: string;
  /** How long distinct values stay fresh. Seconds; default 300. */
  readonly valuesTtlSeconds?: number;
  /** A field with more distinct values than this is not indexed. Default 50. */
  readonly maxValuesPerField?: number;
  /** Settings of the direct-strategy read tools (page size, timeouts); the strategy is always direct, with no mutations. */
  readonly toolSettings?: Omit<ToolSettingsInput, 'toolStrategy' | 'allowedMutations' | 'confirmMutations'>;
  /** Milliseconds since the epoch; default Date.now. */
  readonly clock?: () => number;
  /** Makes a session id where none is given (passed to the router). */
  readonly newSessionId?: () => string;
  /** How a signed-in actor maps to their own rows (`actorRow` on the host): first-person turns read through it. */
  readonly actorRow?: ActorRow;
  /** The host's example questions: those this app reads as reads are offered when a turn is not read. */
  readonly examples?: readonly string[];
}

export interface AppReader {
  /** The router to read the next turn with (rebuilt after a refresh that changed values). */
  router(): Router;
  /** The direct-strategy read tools the dispatcher must hold so that data-read steps can run. */
  readonly readTools: readonly Tool[];
  /** A write ran: the values are stale until the next refresh. */
  noteWrite(): void;
  /** Whether the values should be re-read before the next turn (a write was noted, or the TTL passed). */
  stale(): boolean;
  /** Re-reads distinct values now; resolves true when the vocabulary changed (and so the router). */
  refresh(signal?: AbortSignal): Promise<boolean>;
  /** Row labels for the renderer: 'part'/'parts', 'peça'/'peças'; null for a tool that is no data read. */
  label(tool: string, language: Language, count: number): string | null;
  /** Every word the answer writer may use for this app's data: rows, fields, enum values, managers. */
  readonly labels: AppLabels;
  /** The router context for this actor's turns: `actorRow` where the host maps the actor to rows. */
  actorContext(actor: Actor): { actorRow?: JsonObject };
}

export const DEFAULT_VALUES_TTL_SECONDS = 300;
export const DEFAULT_MAX_VALUES_PER_FIELD = 50;
/** Past this many rows, the actor mapping's ids are not read and an id is trusted to name a row. */
export const MAX_ACTOR_IDS = 10_000;

/** Builds the reader: renders the tools, reads the distinct values once, compiles the router. */
export async function createAppReader(options: AppReaderOptions): Promise<AppReader> {
  const clock = options.clock ?? Date.now;
  const ttlMs = (options.valuesTtlSeconds ?? DEFAULT_VALUES_TTL_SECONDS) * 1000;
  const maxValues = options.maxValuesPerField ?? DEFAULT_MAX_VALUES_PER_FIELD;
  const set = createChatTools(options.app, { ...(options.toolSettings ?? {}), toolStrategy: 'direct', allowedMutations: [], confirmMutations: [] });
  const index = set.index;
  const readTools: ReadTool[] = set.tools
    .filter((tool) => tool.effect === 'read')
    .map((tool, i) => ({ manager: (index.all[i] as SchemaIndex['all'][number]).entry.manager, tool }));
  // The discovery tools answer questions about the schema itself ("which fields does a part have?").
  const discovery = createChatTools(options.app, { ...(options.toolSettings ?? {}), toolStrategy: 'discovery', allowedMutations: [], confirmMutations: [] }, index).tools.filter(
    (tool) => tool.effect === 'read' && DISCOVERY.has(tool.name),
  );
  const catalogue = buildCatalogue(options, index, readTools, discovery);
  // The host's file is parsed (and checked) once; the generated words go under it.
  const hostFile = mergeVocabularies(options.vocabulary);
  loadVocabulary(hostFile);
  checkDataWords(hostFile, index);
  const fields = valueFields(options.app, index);
  const labels = new Map(readTools.map((r) => [r.tool.name, r.manager]));
  const words = appLabels(index, hostFile, labels);

  const readValues = async (signal?: AbortSignal): Promise<DataValues> => {
    const values = new Map<string, readonly string[]>();
    for (const field of fields) {
      signal?.throwIfAborted();
      let found: readonly string[] | null = field.values;
      if (found === null && options.app.distinctValues !== undefined) {
        found = await options.app.distinctValues(field.manager, field.field, { limit: maxValues, ...(signal === undefined ? {} : { signal }) });
      }
      if (found === null || found.length > maxValues) continue;
      const words = wordValues(found);
      if (words.length > 0) values.set(`${field.manager}.${field.field}`, words);
    }
    return values;
  };
  checkActorRow(options.actorRow, options.app);
  // The ids the actor mapping's field holds, read with the values: an actor none names has no row.
  const readActorIds = async (signal?: AbortSignal): Promise<ReadonlySet<string> | null> => {
    const row = options.actorRow;
    if (row === undefined || typeof row === 'function' || options.app.distinctValues === undefined) return null;
    const found = await options.app.distinctValues(row.manager, row.field, { limit: MAX_ACTOR_IDS, ...(signal === undefined ? {} : { signal }) });
    return found === null ? null : new Set(found);
  };
  const conditions: ReaderCondition[] = options.app.managers.flatMap((m) => (m.conditions ?? []).map((c) => ({ manager: m.name, name: c.name, filter: c.filter as JsonObject, words: c.words })));
  // Offered examples: the host's questions a router over this app reads as reads only (never a write), per language.
  const offered: Record<Language, string[]> = { en: [], 'pt-BR': [] };
  const dataReader = createDataReader({ noun: (manager, language) => words.manager(manager, language, 2), conditions, examples: (language) => offered[language] });
  const build = (values: DataValues): { router: Router; digest: string } => {
    const vocabulary = mergeVocabularies(generatedVocabulary(index, values), hostFile);
    const router = createRouter({
      catalogue,
      vocabulary,
      dataReader,
      secret: options.secret,
      ...(options.rulebook === undefined ? {} : { rulebook: options.rulebook }),
      ...(options.newSessionId === undefined ? {} : { newSessionId: options.newSessionId }),
    });
    return { router, digest: canonicalHash(vocabulary) };
  };

  const initial = await readValues();
  let actorIds = await readActorIds();
  let current = build(initial);
  for (const example of options.examples ?? []) {
    for (const language of ['en', 'pt-BR'] as const) {
      const plan = current.router.plan(example, { language, context: { now: new Date(clock()).toISOString() } });
      if (plan.outcome === 'run' && plan.steps.every((s) => s.kind !== 'tool' || current.router.catalogue.tools.get(s.selection.tool ?? '')?.effect === 'read')) offered[language].push(example);
    }
  }
  // The offer is compiled with the router: once the examples are known, compile it again.
  if (offered.en.length + offered['pt-BR'].length > 0) current = build(initial);
  let readAt = clock();
  let writeNoted = false;
  let refreshing: Promise<boolean> | null = null;

  const refreshNow = async (signal?: AbortSignal): Promise<boolean> => {
    writeNoted = false;
    const startedAt = clock();
    try {
      const values = await readValues(signal);
      actorIds = await readActorIds(signal);
      readAt = startedAt;
      const vocabulary = mergeVocabularies(generatedVocabulary(index, values), hostFile);
      if (canonicalHash(vocabulary) === current.digest) return false;
      current = build(values);
      return true;
    } catch (error) {
      writeNoted = true; // still stale: the next turn tries again
      throw error;
    }
  };

  return Object.freeze({
    readTools: Object.freeze([...readTools.map((r) => r.tool), ...discovery]),
    labels: words,
    router: () => current.router,
    noteWrite: () => {
      writeNoted = true;
    },
    stale: () => writeNoted || clock() - readAt >= ttlMs,
    refresh: (signal?: AbortSignal): Promise<boolean> => {
      // One refresh at a time: callers that come while one runs share its outcome.
      refreshing ??= refreshNow(signal).finally(() => {
        refreshing = null;
      });
      return refreshing;
    },
    label: (tool: string, language: Language, count: number): string | null => words.row(tool, language, count),
    actorContext: (actor: Actor) => actorContext(options.actorRow, actor, actorIds),
  });
}

/** The discovery tools a schema question is answered with. */
const DISCOVERY = new Set(['search_managers', 'get_manager_schema', 'find_path']);

function buildCatalogue(options: AppReaderOptions, index: SchemaIndex, readTools: readonly ReadTool[], discovery: readonly Tool[]): CatalogueEntry[] {
  const host = catalogueFromTools(options.hostTools.map((tool) => ({ ...renderTool(tool), effect: tool.effect })));
  const reads = readEntries(index, readTools);
  // Known to the check and planned by the data reader only (never by the generic planner).
  const schema = discovery
    .filter((tool) => !host.some((entry) => entry.name === tool.name))
    .map((tool): CatalogueEntry => ({ ...(catalogueFromTools([{ ...renderTool(tool), effect: tool.effect }])[0] as CatalogueEntry), checkOnly: true }));
  const known = new Set([...host, ...reads, ...schema].map((entry) => entry.name));
  const modelOnly = (options.modelTools ?? [])
    .filter((tool) => !known.has(tool.name))
    .map((tool): CatalogueEntry => ({ ...catalogueFromTools([{ ...renderTool(tool), effect: tool.effect }])[0] as CatalogueEntry, checkOnly: true }));
  return [...host, ...reads, ...schema, ...modelOnly];
}
