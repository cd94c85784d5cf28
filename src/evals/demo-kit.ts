import { join } from 'node:path';
import { createDemoApp, demoActors, demoChatHost } from '../demo/index.js';
import { createAppReader, createEngine } from '../engine/index.js';
import type { Engine } from '../engine/index.js';
import { createMemoryStore, openSqliteStore } from '../store/index.js';
import type { Store } from '../store/index.js';
import { createChatTools } from '../tools/index.js';
import type { EvalCase } from './dataset-schema.js';
import type { EvalCaseKit, OpenEvalCase } from './play-case.js';

export interface DemoKitOptions {
  /** The dataset's fixed moment: the calendar is seeded around it and each case's clock starts at it. */
  readonly now: Date;
  /** Where the engine journals: in memory (default), or a SQLite file per case in `directory`. */
  readonly store?: 'memory' | 'sqlite';
  /** Required for the SQLite store: a directory the caller owns (and removes). */
  readonly directory?: string;
  /** The router's signing secret. */
  readonly secret?: string;
}

/** The demo's tools that need a person's confirmation (every host tool that is not a read). */
export function demoConfirmedTools(): readonly string[] {
  return ['charge_card', 'refund_order', 'send_receipt', 'create_project', 'add_task'];
}

/**
 * Opens each case on a fresh demo: a seeded in-memory shop, its app reader over `demoChatHost` (the
 * demo's tools, rulebook and vocabulary, as `plumb serve --demo` uses them), and an engine with no
 * provider, so that every answer is the router's.
 */
export function demoCaseOpener(options: DemoKitOptions): OpenEvalCase {
  const secret = options.secret ?? 'plumb-evals-demo-default-secret';
  return async (evalCase: EvalCase) => {
    const startedAt = Date.now();
    const origin = options.now.getTime();
    const clock = (): number => origin + (Date.now() - startedAt);
    const app = await createDemoApp({ path: ':memory:', now: options.now });
    let store: Store | undefined;
    let engine: Engine | undefined;
    try {
      // What `plumb serve --demo` adds to the chat stack: the demo's tools, tool settings, words and rules.
      const host = demoChatHost(app);
      const hostTools = host.tools;
      const chatTools = createChatTools(app, host.toolSettings);
      const reader = await createAppReader({ app, hostTools, modelTools: chatTools.tools, vocabulary: host.vocabulary, rulebook: host.rulebook, secret, clock });
      store = options.store === 'sqlite' ? await openSqliteStore({ path: join(requireDirectory(options), `${evalCase.id}.sqlite`) }) : createMemoryStore();
      engine = createEngine({ app, store, tools: [...chatTools.tools, ...hostTools], reader, toolSettings: chatTools.settings, clock });
      await engine.ready;
    } catch (error) {
      await engine?.close();
      await store?.close();
      await app.close();
      throw error;
    }
    const opened: { engine: Engine; store: Store } = { engine, store };
    const kit: EvalCaseKit = {
      engine: opened.engine,
      // A visitor's conversation is kept by the session key a transport gives it (a cookie over HTTP).
      actor: (name) => (name === 'anonymous' ? { kind: 'anonymous', sessionKey: `eval-${evalCase.id}` } : demoActors[name]),
      close: async () => {
        await opened.engine.close();
        await opened.store.close();
        await app.close();
      },
    };
    return kit;
  };
}

function requireDirectory(options: DemoKitOptions): string {
  if (options.directory === undefined) throw new TypeError('demoCaseOpener: the SQLite store needs a directory.');
  return options.directory;
}
