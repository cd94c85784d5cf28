import { readFile, writeFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { parse as parseYaml } from 'yaml';
import { demoCatalogue, demoRulebookYaml, demoVocabularyYaml } from '../../demo/index.js';
import type { CatalogueEntry, Router, RouterContext, Session, TurnPlan } from '../../router/index.js';
import { createRouter, sessionFromJSON } from '../../router/index.js';
import { CliUsageError } from '../program.js';
import type { CliIo } from '../program.js';

interface RouteOptions {
  readonly demo?: boolean;
  readonly catalogue?: string;
  readonly vocabulary?: string;
  readonly rulebook?: string;
  readonly now?: string;
  readonly language?: string;
  readonly session?: string;
  readonly saveSession?: string;
  readonly onUnread?: string;
  readonly json?: boolean;
}

/** The secret a CLI session signs its history with; set PLUMB_ROUTER_SECRET to share sessions with a host. */
const LOCAL_SECRET = 'plumb-cli-route-local-secret';

export function registerRouteCommand(program: Command, io: CliIo): void {
  program
    .command('route')
    .description('Read one turn with the deterministic router and print its TurnPlan (run, ask, declined or unread)')
    .argument('<turn>', 'what the person typed, e.g. "charge order 4411"')
    .option('--demo', "use the demo's catalogue, rulebook and vocabulary")
    .option('--catalogue <file>', 'catalogue file: a JSON or YAML array of { name, description, parameters, effect, outputs?, undo? }')
    .option('--vocabulary <file>', 'vocabulary YAML file (settings.language, languages.<en|pt-BR>…)')
    .option('--rulebook <file>', 'rulebook YAML or JSON file')
    .option('--now <rfc3339>', 'what time it is where the host runs, with its offset (2026-10-19T09:00:00+01:00)')
    .option('--language <language>', 'en or pt-BR (default: the vocabulary settings.language, else en)')
    .option('--session <file>', 'read the turn in this saved session (JSON written by --save-session)')
    .option('--save-session <file>', 'write the session after this turn to this file')
    .option('--on-unread <setting>', 'model or refuse: what a new session does with unread turns')
    .option('--json', 'print the TurnPlan as JSON')
    .action(async (turn: string, options: RouteOptions) => {
      const router = await buildRouter(options);
      if (options.onUnread !== undefined && options.onUnread !== 'model' && options.onUnread !== 'refuse') {
        throw new CliUsageError(`--on-unread must be model or refuse, not '${options.onUnread}'`);
      }
      if (options.language !== undefined && !['en', 'pt-br', 'pt'].includes(options.language.toLowerCase())) {
        throw new CliUsageError(`--language must be en or pt-BR, not '${options.language}'`);
      }
      let plan: TurnPlan;
      let session: Session | null = null;
      if (options.session !== undefined || options.saveSession !== undefined) {
        session = options.session === undefined ? newSession(router, options) : sessionFromJSON(router, await readText(options.session, '--session'));
        const context: RouterContext | undefined = options.now === undefined ? undefined : { ...session.state().context, now: options.now };
        plan = session.read(turn, context === undefined ? {} : { context });
      } else {
        plan = router.plan(turn, {
          ...(options.language === undefined ? {} : { language: options.language }),
          ...(options.now === undefined ? {} : { context: { now: options.now } }),
          ...(options.onUnread === undefined ? {} : { onUnread: options.onUnread }),
        });
      }
      if (session !== null && options.saveSession !== undefined) await writeFile(options.saveSession, session.toJSON(), 'utf8');
      io.stdout(options.json === true ? `${JSON.stringify(plan, null, 2)}\n` : summary(plan));
    });
}

function newSession(router: Router, options: RouteOptions): Session {
  return router.session({
    ...(options.language === undefined ? {} : { language: options.language }),
    ...(options.onUnread === undefined ? {} : { onUnread: options.onUnread as 'model' | 'refuse' }),
    ...(options.now === undefined ? {} : { context: { now: options.now } }),
  });
}

async function buildRouter(options: RouteOptions): Promise<Router> {
  if (options.demo === true && options.catalogue !== undefined) throw new CliUsageError('give --demo or --catalogue FILE, not both');
  if (options.demo !== true && options.catalogue === undefined) throw new CliUsageError('give --demo or --catalogue FILE: the router needs a catalogue');
  const secret = process.env['PLUMB_ROUTER_SECRET'] ?? LOCAL_SECRET;
  let catalogue: readonly CatalogueEntry[] = demoCatalogue;
  if (options.catalogue !== undefined) {
    const data = parseData(await readText(options.catalogue, '--catalogue'), '--catalogue');
    const list = Array.isArray(data) ? data : (data as { catalogue?: unknown } | null)?.catalogue;
    if (!Array.isArray(list)) throw new CliUsageError('--catalogue must hold an array of tool entries (or { catalogue: [...] })');
    catalogue = list as CatalogueEntry[];
  }
  const vocabulary = options.vocabulary !== undefined ? await readText(options.vocabulary, '--vocabulary') : options.demo === true ? demoVocabularyYaml : undefined;
  const rulebook = options.rulebook !== undefined ? await readText(options.rulebook, '--rulebook') : options.demo === true ? demoRulebookYaml : undefined;
  return createRouter({ catalogue, secret, ...(vocabulary === undefined ? {} : { vocabulary }), ...(rulebook === undefined ? {} : { rulebook }) });
}

async function readText(file: string, option: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    throw new CliUsageError(`${option}: cannot read '${file}': ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

function parseData(text: string, option: string): unknown {
  try {
    return parseYaml(text) as unknown;
  } catch (error) {
    throw new CliUsageError(`${option}: not JSON or YAML: ${(error as Error).message}`);
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
