import { join } from 'node:path';
import type { JsonValue } from '../core/index.js';
import { createEngine } from '../engine/index.js';
import type { Engine, EngineSettingsInput, PlannedRunner } from '../engine/index.js';
import { createPlannedRunner, plannedManagers, plannedSettingsSchema } from '../planned/index.js';
import type { AppManager, PlannedModels, PlannedSettings } from '../planned/index.js';
import { createScriptedProvider } from '../providers/index.js';
import type { Provider } from '../providers/index.js';
import { createAppReader } from '../reading/index.js';
import { createMemoryStore, openSqliteStore } from '../store/index.js';
import type { Store } from '../store/index.js';
import { createChatTools } from '../tools/index.js';
import type { Tool, ToolSettingsInput } from '../tools/index.js';
import type { EvalCase, EvalFixedResult, EvalRole } from './dataset-schema.js';
import { unknownActor } from './fixtures/fixture.js';
import type { OpenEvalFixture } from './fixtures/fixture.js';
import { argumentsMatch } from './match-arguments.js';
import type { EvalCaseKit, OpenEvalCase } from './play-case.js';

export interface CaseKitOptions {
  /** The data each case runs over, opened fresh per case. */
  readonly fixture: OpenEvalFixture;
  /** The dataset's fixed moment: the fixture is seeded around it and each case's clock starts at it. */
  readonly now: Date;
  /** The run's model; without one a case plays its own script, or the router alone. */
  readonly provider?: Provider | undefined;
  /** Without a provider, play each case's script (default true); false: the router alone. */
  readonly scripts?: boolean;
  /** The engine settings of the configuration the run uses. */
  readonly engineSettings?: EngineSettingsInput | undefined;
  /** Tool settings over the fixture's own (the configuration's, for your app). */
  readonly toolSettings?: ToolSettingsInput | undefined;
  /** Where the engine journals: in memory (default), or a SQLite file per case in `directory`. */
  readonly store?: 'memory' | 'sqlite';
  /** Required for the SQLite store: a directory the caller owns (and removes). */
  readonly directory?: string;
  /** The router's signing secret. */
  readonly secret?: string;
  /** The bounds of planned turns (the configuration's `planned`); default: the documented defaults. */
  readonly plannedSettings?: PlannedSettings | undefined;
  /** The run's planned role models (the configuration's profiles): every case's unread reads are planned with them. */
  readonly plannedModels?: PlannedModels | undefined;
}

/**
 * Opens each case on fresh data: the fixture's app, its router (the host's tools, words and
 * rules), and an engine with the run's model, or the case's script, or no model at all, so that
 * every answer is the router's. Calls the case fixes answer its results without running.
 */
export function caseOpener(options: CaseKitOptions): OpenEvalCase {
  const secret = options.secret ?? 'plumb-evals-default-secret';
  return async (evalCase: EvalCase) => {
    const startedAt = Date.now();
    const origin = options.now.getTime();
    const clock = (): number => origin + (Date.now() - startedAt);
    const fixture = await options.fixture(options.now);
    let store: Store | undefined;
    let engine: Engine | undefined;
    try {
      const actor = fixture.actor(evalCase.actor);
      if (actor === undefined) throw unknownActor(evalCase.actor, fixture);
      const chatTools = createChatTools(fixture.app, options.toolSettings ?? fixture.host.toolSettings);
      const tools = withFixedResults([...chatTools.tools, ...fixture.host.tools], evalCase.toolResults);
      const hostTools = tools.slice(chatTools.tools.length);
      const reader = await createAppReader({
        app: fixture.app,
        hostTools,
        modelTools: tools.slice(0, chatTools.tools.length),
        secret,
        clock,
        ...(fixture.host.vocabulary === undefined ? {} : { vocabulary: fixture.host.vocabulary }),
        ...(fixture.host.rulebook === undefined ? {} : { rulebook: fixture.host.rulebook }),
        ...(fixture.host.actorRow === undefined ? {} : { actorRow: fixture.host.actorRow }),
      });
      store = options.store === 'sqlite' ? await openSqliteStore({ path: join(requireDirectory(options), `${evalCase.id}.sqlite`) }) : createMemoryStore();
      const scripts = options.scripts !== false;
      const provider = options.provider ?? (evalCase.script === undefined || !scripts ? undefined : createScriptedProvider(evalCase.script));
      const planned = plannedRunner(evalCase, options, fixture.app.managers, scripts);
      engine = createEngine({
        app: fixture.app,
        store,
        tools,
        reader,
        toolSettings: chatTools.settings,
        clock,
        ...(options.engineSettings === undefined ? {} : { settings: options.engineSettings }),
        ...(provider === undefined ? {} : { provider }),
        ...(planned === undefined ? {} : { planned }),
      });
      await engine.ready;
      const opened = { engine, store };
      const kit: EvalCaseKit = {
        engine: opened.engine,
        withModel: provider !== undefined || planned !== undefined,
        // A visitor's conversation is kept by the session key a transport gives it (a cookie over HTTP).
        actor: (name) => {
          const found = fixture.actor(name);
          if (found === undefined) throw unknownActor(name, fixture);
          return found.kind === 'anonymous' ? { kind: 'anonymous', sessionKey: `eval-${evalCase.id}` } : found;
        },
        close: async () => {
          await opened.engine.close();
          await opened.store.close();
          await fixture.close();
        },
      };
      return kit;
    } catch (error) {
      await engine?.close();
      await store?.close();
      await fixture.close();
      throw error;
    }
  };
}

/**
 * The case's planned strategy: the run's role models, or (a case with `roles`) the run's one
 * model in every role, or each role's script; none when the case plans nothing.
 */
function plannedRunner(evalCase: EvalCase, options: CaseKitOptions, managers: readonly AppManager[], scripts: boolean): PlannedRunner | undefined {
  const settings = { ...(options.plannedSettings ?? plannedSettingsSchema.parse({})), enabled: true };
  let models: PlannedModels | undefined = options.plannedModels;
  const roles = evalCase.roles;
  if (models === undefined && roles !== undefined) {
    if (options.provider !== undefined) {
      const provider = options.provider;
      models = { planner: provider, simpleExecutor: provider, complexExecutor: provider, synthesizer: provider, fallback: provider };
    } else if (scripts) {
      const scripted = (role: EvalRole): Provider | undefined => (roles[role] === undefined ? undefined : createScriptedProvider(roles[role]));
      // The dataset schema requires the planner's script; an executor without one plays the other
      // executor's (one script, so tasks routed either way share it), any other role the planner's.
      const planner = scripted('planner')!;
      const simple = scripted('simpleExecutor');
      const complex = scripted('complexExecutor');
      models = { planner, simpleExecutor: simple ?? complex ?? planner, complexExecutor: complex ?? simple ?? planner, synthesizer: scripted('synthesizer') ?? planner, fallback: scripted('fallback') ?? planner };
    }
  }
  return models === undefined ? undefined : createPlannedRunner({ models, settings, managers: plannedManagers(managers) });
}

/** Each tool whose calls a case fixes answers the first matching fixed result, and runs otherwise. */
function withFixedResults(tools: readonly Tool[], fixed: readonly EvalFixedResult[]): Tool[] {
  if (fixed.length === 0) return [...tools];
  return tools.map((tool) => {
    const answers = fixed.filter((item) => item.tool === tool.name);
    if (answers.length === 0) return tool;
    const handler = (args: unknown, ctx: Parameters<Tool['handler']>[1]): unknown => {
      const found = answers.find((item) => argumentsMatch(item.arguments, args));
      return found === undefined ? tool.handler(args, ctx) : structuredClone(found.result as JsonValue);
    };
    return Object.freeze({ ...tool, handler });
  });
}

function requireDirectory(options: CaseKitOptions): string {
  if (options.directory === undefined) throw new TypeError('caseOpener: the SQLite store needs a directory.');
  return options.directory;
}
