import { nanoid } from 'nanoid';
import { PlumbError, actorKey } from '../../core/index.js';
import type { Provider, ToolDefinition } from '../../providers/index.js';
import type { Store } from '../../store/index.js';
import { askUserToolName, createAskUserTool, createDispatcher, createReadResultTool, readResultToolName } from '../../tools/index.js';
import type { ChatApp, DispatchInstrument, Dispatcher, Tool, ToolSettings, ToolSettingsInput } from '../../tools/index.js';
import { writeAnswer } from '../../answers/index.js';
import type { PlannedRunner } from '../../planned/index.js';
import { buildSystemPrompt, TokenEstimator } from '../context/index.js';
import { storedResultOf } from '../shared/index.js';
import type { HookBus } from '../shared/index.js';
import type { ThreadTails } from '../thread/index.js';
import type { EngineSettings } from '../settings.js';
import { storeConfirmations } from './confirmation-adapter.js';
import { LiveSessions } from './live-sessions.js';
import type { AnswerRenderer, EngineReader, RoutingParts } from './router-types.js';
import type { TitleLabel } from '../thread/index.js';

/** What every run of every turn shares: the engine's parts. */
export interface EngineParts {
  readonly store: Store;
  readonly provider: Provider | undefined;
  readonly dispatcher: Dispatcher;
  readonly toolDefinitions: readonly ToolDefinition[];
  readonly settings: EngineSettings;
  readonly hooks: HookBus;
  readonly systemPrompt: string;
  readonly clock: () => number;
  readonly random: () => number;
  /** Ties a confirmation the dispatcher is about to create to its turn and call. */
  /** The engine's lease now: every write of a run is fenced by it (`WriteFence`). */
  readonly lease: () => string;
  readonly bindConfirmation: (threadId: string, binding: { readonly turnId: string; readonly callId: string } | undefined) => void;
  /** A turn just went waiting: schedule its expiry. */
  readonly scheduleExpiry: (confirmationId: string, expiresAt: number) => void;
  /** Router-first turns; undefined when the router is off or the engine has no reader. */
  readonly routing: RoutingParts | undefined;
  /** The router's name for a tool's rows ("parts"), for generated titles; undefined without a reader that labels. */
  readonly titleLabel: TitleLabel | undefined;
  /** The recent items of the threads this engine ran last. */
  readonly tails: ThreadTails;
  /** The planned read strategy for fresh turns the router leaves unread; undefined: the model loop. */
  readonly planned: PlannedRunner | undefined;
  /** Token estimates for the provider's model, calibrated by the usage it reports. */
  readonly tokens: TokenEstimator;
  /** `read_result`, offered to the model in the rounds whose context holds a cut result. */
  readonly readResultTool: ToolDefinition;
  /** `toolDefinitions` and `read_result`. */
  readonly readResultTools: readonly ToolDefinition[];
}

/** What the engine's options give its parts (the façade's `EngineOptions` is one). */
export interface PartsSource {
  readonly app?: ChatApp;
  readonly store: Store;
  readonly provider?: Provider;
  readonly tools: readonly Tool[];
  readonly toolSettings?: ToolSettings | ToolSettingsInput;
  readonly planned?: PlannedRunner;
  readonly instrumentTools?: DispatchInstrument;
  readonly ids?: () => string;
  readonly random?: () => number;
  readonly reader?: EngineReader;
  readonly answer?: AnswerRenderer;
}

/** What the façade wires into the parts from the other rooms. */
export interface PartsWiring {
  readonly clock: () => number;
  readonly scheduleExpiry: (confirmationId: string, expiresAt: number) => void;
  readonly tails: ThreadTails;
  readonly lease: () => string;
}

/** The parts every run shares: the dispatcher over the host's tools and the built-in ones, the router side, the prompt, the estimator. */
export function buildParts(options: PartsSource, settings: EngineSettings, hooks: HookBus, wiring: PartsWiring): EngineParts {
  const clock = wiring.clock;
  const bindings = new Map<string, { readonly turnId: string; readonly callId: string }>();
  const routing = routingParts(options, settings);
  // The dispatcher also holds the reader's read tools (the router's data-read steps call them); the model is not offered them.
  // `ask_user` (askUserTool): the model asks the person, and the turn waits for the answer.
  const askTools = settings.askUserTool && !options.tools.some((tool) => tool.name === askUserToolName) ? [createAskUserTool()] : [];
  const modelTools = new Set([...options.tools, ...askTools].map((tool) => tool.name));
  const readTools = routing === undefined ? [] : routing.reader.readTools.filter((tool) => !modelTools.has(tool.name));
  const store = options.store;
  // Built in: pages through the results a model's calls returned too large to show (docs/tools.md).
  const readResult = createReadResultTool(async ({ resultId, threadId, actor }) => {
    if (threadId === undefined) return undefined;
    const thread = await store.getThread(threadId);
    const turnId = resultId.replace(/\.r\d+\.\d+$/, '');
    if (thread === undefined || thread.owner !== actorKey(actor) || turnId === resultId) return undefined;
    const item = (await store.listItems(threadId, { turnId })).find((candidate) => candidate.id === resultId);
    return item === undefined ? undefined : storedResultOf(item);
  });
  const dispatcher = createDispatcher({
    tools: [...options.tools, ...askTools, ...readTools, readResult],
    app: options.app,
    settings: options.toolSettings,
    confirmations: storeConfirmations(options.store, (threadId) => (threadId === undefined ? undefined : bindings.get(threadId))),
    clock: () => new Date(clock()),
    ids: options.ids ?? (() => nanoid()),
    instrument: options.instrumentTools,
    onError: (error, report) =>
      hooks.emit('error', { error, code: 'tool_failed', threadId: report.threadId, actor: report.actor, source: report.phase === 'handler' ? 'tool' : 'confirmation_store' }),
  });
  const toolDefinitions = dispatcher.definitions().filter((definition) => modelTools.has(definition.name));
  const readResultTool = dispatcher.definitions().find((definition) => definition.name === readResultToolName)!;
  return {
    store: options.store,
    provider: options.provider,
    dispatcher,
    toolDefinitions,
    readResultTool,
    readResultTools: Object.freeze([...toolDefinitions, readResultTool]),
    tokens: new TokenEstimator(options.provider?.model ?? ''),
    settings: settings,
    hooks: hooks,
    systemPrompt: buildSystemPrompt(options.app, settings.systemPrompt, settings.maxSchemaManagersInPrompt),
    clock,
    random: options.random ?? Math.random,
    bindConfirmation: (threadId, binding) => {
      if (binding === undefined) bindings.delete(threadId);
      else bindings.set(threadId, binding);
    },
    scheduleExpiry: wiring.scheduleExpiry,
    routing,
    titleLabel: titleLabel(routing?.reader),
    tails: wiring.tails,
    planned: options.planned,
    lease: wiring.lease,
  };
}

/** The router's name for a tool's rows ("parts"), for generated titles. */
function titleLabel(reader: EngineReader | undefined): TitleLabel | undefined {
  if (reader?.label === undefined) return undefined;
  return (tool, language) => reader.label!(tool, language as Parameters<NonNullable<EngineReader['label']>>[1], 2);
}

/** The router side of the engine: present when a reader is given and the `router` setting is on. */
function routingParts(options: PartsSource, settings: EngineSettings): RoutingParts | undefined {
  if (options.reader === undefined || settings.router === 'off') return undefined;
  if (settings.answerWith === 'model' && options.provider === undefined) {
    throw new PlumbError('invalid_engine_settings', "Invalid engine settings. answerWith: 'model' needs a provider; configure one or use answerWith: 'router'.");
  }
  return {
    reader: options.reader,
    answer: options.answer ?? writeAnswer,
    onUnread: settings.onUnread ?? (options.provider === undefined && options.planned === undefined ? 'refuse' : 'model'),
    askToRephrase: settings.askToRephrase,
    answerWith: settings.answerWith,
    live: new LiveSessions(),
  };
}

