import { writeFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { createAppReader } from '../../reading/index.js';
import type { CatalogueEntry, DataExplanation, Router, RouterContext, Session, TurnPlan } from '../../router/index.js';
import type { JsonObject } from '../../core/index.js';
import { userActor } from '../../core/index.js';
import { createRouter, sessionFromJSON } from '../../router/index.js';
import { createChatTools } from '../../tools/index.js';
import { splitConfig } from '../../config/index.js';
import { actorFrom, addConfigOptions, addDatabaseOption, loadCliConfig, noApp, openLoadedApp } from '../app-options.js';
import { CliUsageError } from '../cli-errors.js';
import type { CliIo } from '../cli-io.js';
import { parseData, readText } from '../data-file.js';

interface RouteOptions {
  readonly config?: string;
  readonly demo?: boolean;
  readonly database?: string;
  readonly db?: string;
  readonly catalogue?: string;
  readonly vocabulary?: string;
  readonly rulebook?: string;
  readonly now?: string;
  readonly language?: string;
  readonly session?: string;
  readonly saveSession?: string;
  readonly onUnread?: string;
  readonly json?: boolean;
  readonly explain?: boolean;
  readonly actor?: string;
  readonly as?: string;
}

/** The secret a CLI session signs its history with; set PLUMB_ROUTER_SECRET to share sessions with a host. */
const LOCAL_SECRET = 'plumb-cli-route-local-secret';

export function registerRouteCommand(program: Command, io: CliIo): void {
  addDatabaseOption(addConfigOptions(
    program
      .command('route')
      .description("Read one turn with the deterministic router and print its TurnPlan (run, ask, declined or unread): the configured app's router (as a chat turn reads it), or one over a catalogue file")
      .argument('<turn>', 'what the person typed, e.g. "charge order 4411"'),
  ))
    .option('--catalogue <file>', 'read with a router over this catalogue file instead of the app: a JSON or YAML array of { name, description, parameters, effect, outputs?, undo? }')
    .option('--vocabulary <file>', "vocabulary YAML file (settings.language, languages.<en|pt-BR>…), over the app's own")
    .option('--rulebook <file>', "rulebook YAML or JSON file, instead of the app's")
    .option('--now <rfc3339>', 'what time it is where the host runs, with its offset (2026-10-19T09:00:00+01:00)')
    .option('--language <language>', 'en or pt-BR (default: the vocabulary settings.language, else en)')
    .option('--session <file>', 'read the turn in this saved session (JSON written by --save-session)')
    .option('--save-session <file>', 'write the session after this turn to this file')
    .option('--on-unread <setting>', 'model or refuse: what a new session does with unread turns')
    .option('--json', 'print the TurnPlan as JSON')
    .option('--explain', 'also say which words made which part of the plan and what they matched (for unread: the words nothing consumed)')
    .option('--as <name>', "read as this actor: anonymous, or a name from the configuration's actors (first-person turns go through the host's actorRow)")
    .option('--actor <id>', 'read as a signed-in user with this id, who need not be among the configured actors')
    .action(async (turn: string, options: RouteOptions) => {
      const { router, close, actorContext } = await buildRouter(options);
      try {
        await routeTurn(router, turn, options, io, actorContext);
      } finally {
        await close();
      }
    });
}

async function routeTurn(router: Router, turn: string, options: RouteOptions, io: CliIo, actorContext: JsonObject): Promise<void> {
  if (options.onUnread !== undefined && options.onUnread !== 'model' && options.onUnread !== 'refuse') {
    throw new CliUsageError(`--on-unread must be model or refuse, not '${options.onUnread}'`);
  }
  if (options.language !== undefined && !['en', 'pt-br', 'pt'].includes(options.language.toLowerCase())) {
    throw new CliUsageError(`--language must be en or pt-BR, not '${options.language}'`);
  }
  let plan: TurnPlan;
  let session: Session | null = null;
  const explained: DataExplanation[] = [];
  const explain = options.explain === true ? { explain: (e: DataExplanation) => explained.push(e) } : {};
  const extra: RouterContext = { ...(options.now === undefined ? {} : { now: options.now }), ...actorContext };
  if (options.session !== undefined || options.saveSession !== undefined) {
    session = options.session === undefined ? newSession(router, options) : sessionFromJSON(router, await readText(options.session, '--session'));
    const context: RouterContext | undefined = Object.keys(extra).length === 0 ? undefined : { ...session.state().context, ...extra };
    plan = session.read(turn, { ...(context === undefined ? {} : { context }), ...explain });
  } else {
    plan = router.plan(turn, {
      ...(options.language === undefined ? {} : { language: options.language }),
      ...(Object.keys(extra).length === 0 ? {} : { context: extra }),
      ...(options.onUnread === undefined ? {} : { onUnread: options.onUnread }),
      ...explain,
    });
  }
  if (session !== null && options.saveSession !== undefined) await writeFile(options.saveSession, session.toJSON(), 'utf8');
  if (options.json === true) io.stdout(`${JSON.stringify(options.explain === true ? { plan, explanation: explained } : plan, null, 2)}\n`);
  else io.stdout(`${summary(plan)}${options.explain === true ? explanationText(explained) : ''}`);
}

/** The explanation readably: per clause, each word → the part of the plan it made ← what it matched. */
function explanationText(explained: readonly DataExplanation[]): string {
  if (explained.length === 0) return 'explain: no clause went to the data reader\n';
  const lines: string[] = [];
  for (const e of explained) {
    lines.push(`explain "${e.clause}": ${e.outcome}${e.reason === null ? '' : ` (${e.reason})`}`);
    for (const w of e.words) lines.push(`  "${w.text}" → ${w.part}  ← ${w.matched}`);
    if (e.unconsumed.length > 0) lines.push(`  nothing consumed: ${e.unconsumed.map((w) => `"${w}"`).join(', ')}`);
  }
  return `${lines.join('\n')}\n`;
}

function newSession(router: Router, options: RouteOptions): Session {
  return router.session({
    ...(options.language === undefined ? {} : { language: options.language }),
    ...(options.onUnread === undefined ? {} : { onUnread: options.onUnread as 'model' | 'refuse' }),
    ...(options.now === undefined ? {} : { context: { now: options.now } }),
  });
}

/**
 * The router a turn is read with: one over `--catalogue FILE`, else the configured app's (or the
 * demo's) app reader, the same router a chat turn meets: host tools, one data read per exposed
 * manager, the words of the schema and the data under the host's vocabulary.
 */
async function buildRouter(options: RouteOptions): Promise<{ router: Router; close: () => Promise<void>; actorContext: JsonObject }> {
  const secret = process.env['PLUMB_ROUTER_SECRET'] ?? LOCAL_SECRET;
  const vocabularyFile = options.vocabulary === undefined ? undefined : await readText(options.vocabulary, '--vocabulary');
  const rulebookFile = options.rulebook === undefined ? undefined : await readText(options.rulebook, '--rulebook');
  if (options.as !== undefined && options.actor !== undefined) throw new CliUsageError('give --as NAME or --actor ID, not both');
  if (options.catalogue !== undefined) {
    if (options.demo === true) throw new CliUsageError('give --demo or --catalogue FILE, not both');
    if (options.as !== undefined || options.actor !== undefined) throw new CliUsageError('--as and --actor read as a user of an app; a --catalogue router has no users');
    const data = parseData(await readText(options.catalogue, '--catalogue'), '--catalogue');
    const list = Array.isArray(data) ? data : (data as { catalogue?: unknown } | null)?.catalogue;
    if (!Array.isArray(list)) throw new CliUsageError('--catalogue must hold an array of tool entries (or { catalogue: [...] })');
    const router = createRouter({ catalogue: list as CatalogueEntry[], secret, ...(vocabularyFile === undefined ? {} : { vocabulary: vocabularyFile }), ...(rulebookFile === undefined ? {} : { rulebook: rulebookFile }) });
    return { router, close: () => Promise.resolve(), actorContext: {} };
  }
  const loaded = await loadCliConfig(options);
  if (loaded.host === undefined) throw noApp(loaded, ', or --catalogue FILE for a router over a catalogue alone');
  const opened = await openLoadedApp(loaded, {});
  try {
    const { app, tools, vocabulary, rulebook } = opened.opened;
    const { config } = opened;
    const chatTools = createChatTools(app, splitConfig(config).tools);
    const reader = await createAppReader({
      app,
      hostTools: tools,
      modelTools: chatTools.tools,
      secret,
      valuesTtlSeconds: config.valuesTtlSeconds,
      maxValuesPerField: config.maxValuesPerField,
      ...((vocabularyFile ?? vocabulary) === undefined ? {} : { vocabulary: vocabularyFile ?? vocabulary }),
      ...((rulebookFile ?? rulebook) === undefined ? {} : { rulebook: rulebookFile ?? rulebook }),
      ...(opened.opened.host.actorRow === undefined ? {} : { actorRow: opened.opened.host.actorRow }),
      examples: opened.opened.examples,
    });
    const actor = options.actor !== undefined ? userActor(options.actor, []) : options.as !== undefined ? actorFrom(config, options.as) : undefined;
    const actorContext = actor === undefined ? {} : reader.actorContext(actor);
    return { router: reader.router(), close: () => opened.close(), actorContext };
  } catch (error) {
    await opened.close();
    throw error;
  }
}

function summary(plan: TurnPlan): string {
  const lines = [`outcome: ${plan.outcome}`];
  plan.steps.forEach((step, i) => {
    const call = step.selection.tool === null ? '' : ` ${step.selection.tool} ${JSON.stringify(step.selection.arguments)}`;
    lines.push(`  ${i} ${step.kind}${call}  [${step.decidedBy}]`);
    if (Object.keys(step.selection.sources).length > 0) lines.push(`      sources: ${JSON.stringify(step.selection.sources)}`);
    if (Object.keys(step.supplied).length > 0) lines.push(`      supplied: ${JSON.stringify(step.supplied)}`);
    if (step.dependsOn.length > 0) lines.push(`      depends on: ${step.dependsOn.join(', ')}`);
    if (step.selection.missing.length > 0) lines.push(`      missing: ${step.selection.missing.join(', ')}`);
    if (step.selection.question !== null) lines.push(`      question: ${step.selection.question}`);
    if (step.confirmation !== null) lines.push(`      confirm: ${step.confirmation}`);
  });
  if (plan.declinedBecause !== null) lines.push(`declined because: ${plan.declinedBecause}`);
  if (plan.guidance?.next != null) lines.push(`next: ${plan.guidance.next}${plan.guidance.render === null ? '' : ` — ${plan.guidance.render}`}`);
  if (plan.toModel.length > 0) lines.push(`to the model: ${plan.toModel.join(', ')}`);
  if (plan.saga.length > 0) lines.push(`saga: ${plan.saga.map((s) => `${s.irreversible} before ${s.writes.join(', ')}`).join('; ')}`);
  lines.push(`catalogue ${plan.catalogueVersion} · vocabulary ${plan.vocabularyDigest.slice(0, 12)}`);
  return `${lines.join('\n')}\n`;
}
