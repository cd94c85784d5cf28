import { createInterface } from 'node:readline/promises';
import { Option } from 'commander';
import type { Command } from 'commander';
import { nanoid } from 'nanoid';
import { confirmationSentence } from '../../client/index.js';
import type { Actor } from '../../core/index.js';
import type { ChatEvent, Engine, SendRequest } from '../../engine/index.js';
import { LANGUAGES } from '../../router/index.js';
import { createChatStack } from '../../server/index.js';
import { addAppOptions, openCliApp } from '../app-options.js';
import type { AppOptions } from '../app-options.js';
import { addProviderOptions, checkProviderFlags, providerOverrides } from '../provider-options.js';
import type { ProviderOptions } from '../provider-options.js';
import { AnswerText } from '../answer-text.js';
import { CliFailure, CliOutcome, CliUsageError } from '../cli-errors.js';
import type { CliIo } from '../cli-io.js';
import { readContextFile } from '../data-file.js';
import { addRouterOption } from '../router-option.js';
import type { RouterMode } from '../router-option.js';

interface AskOptions extends AppOptions, ProviderOptions {
  readonly thread?: string;
  readonly continue?: boolean;
  readonly json?: boolean;
  readonly yes?: boolean;
  readonly no?: boolean;
  readonly router?: RouterMode;
  readonly language?: string;
  readonly now?: string;
  readonly contextFile?: string;
  readonly timeZone?: string;
}

/** How a held change is answered: `--yes`, `--no`, or a question on the terminal. */
type Decide = (event: Extract<ChatEvent, { type: 'confirm_mutation' }>) => Promise<boolean>;

/**
 * `plumb ask "<text>"`: runs one turn through the engine over the configured app (or the demo) and
 * prints the answer (or every event as a JSON line with `--json`). Each run starts a new thread, as
 * a command-line assistant does: an unrelated question must not inherit the last one's history,
 * language or pending question. The journal is the configured store, so `--thread ID` continues a
 * conversation across runs and `--continue` the actor's latest.
 */
export function registerAskCommand(program: Command, io: CliIo): void {
  const command = program
    .command('ask')
    .description('Run one chat turn and print the answer (or the events as JSON lines)')
    .argument('<text>', 'what to ask')
    .option('--thread <id>', 'continue this thread (default: a new one)')
    .option('--continue', 'continue your most recent thread')
    .option('--json', 'print every event as one line of JSON')
    .option('--yes', 'approve a change that needs confirmation')
    .option('--no', 'reject a change that needs confirmation')
    .option('--now <rfc3339>', 'what time it is for the turn, with its offset (2026-10-19T09:00:00+01:00): dates such as "tomorrow" are read from it, and time runs on from it')
    .option('--context-file <file>', 'the page context the message carries: JSON or YAML { references?, context?, supplementalContext? } (docs/engine.md, "Page context")')
    .option('--time-zone <zone>', 'the IANA time zone the router reads the turn\'s dates in (default: the timeZone setting)')
    .addOption(new Option('--language <lang>', 'the language the router reads the turn in (never guessed; default: the conversation\'s, at first English)').choices([...LANGUAGES]));
  addRouterOption(addProviderOptions(addAppOptions(command))).action(async (text: string, options: AskOptions) => {
    if (options.yes === true && options.no === true) throw new CliUsageError('give --yes or --no, not both');
    if (options.thread !== undefined && options.continue === true) throw new CliUsageError('give --thread ID or --continue, not both');
    const clock = options.now === undefined ? undefined : clockFrom(options.now);
    const page = options.contextFile === undefined ? {} : ((await readContextFile(options.contextFile)) as Pick<SendRequest, 'references' | 'context' | 'supplementalContext'>);
    await using opened = await openCliApp(options, { ...providerOverrides(options), ...(options.router === undefined ? {} : { router: options.router }) });
    const { config } = opened;
    checkProviderFlags(options, config.provider);
    if (config.router === 'off' && config.provider === null) throw new CliUsageError('--router off sends every turn to the model: give --provider too (or set provider in the configuration)');
    // The CLI is one session: an anonymous visitor keeps one thread across runs.
    const actor: Actor = opened.actor.kind === 'anonymous' ? { kind: 'anonymous', sessionKey: 'plumb-cli' } : opened.actor;
    const { app, tools, vocabulary, rulebook } = opened.opened;
    await using stack = await createChatStack({ app, config, host: { tools, vocabulary, rulebook, actorRow: opened.opened.host.actorRow, examples: opened.opened.examples }, cwd: opened.loaded.root, ...(clock === undefined ? {} : { clock }) });
    const decide: Decide = options.yes === true ? () => Promise.resolve(true) : options.no === true ? () => Promise.resolve(false) : askOnTerminal(io);
    await runTurn(stack.engine, io, options.json === true, decide, stack.engine.send({ actor, requestKey: nanoid(), text, ...threadChoice(options), ...(options.language === undefined ? {} : { language: options.language }), ...page, ...(options.timeZone === undefined ? {} : { timeZone: options.timeZone }) }), actor);
  });
}

/** `--now`: a clock that starts at the given moment and runs on from it. */
function clockFrom(now: string): () => number {
  const at = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/i.test(now) ? Date.parse(now) : Number.NaN;
  if (Number.isNaN(at)) throw new CliUsageError(`--now is an RFC 3339 time with its offset (2026-10-19T09:00:00+01:00 or 2026-10-19T08:00:00Z), not '${now}'`);
  const started = Date.now();
  return () => at + (Date.now() - started);
}

/** `--thread ID`: that thread; `--continue`: the engine's default, the actor's latest; neither: a new thread. */
function threadChoice(options: AskOptions): { threadId: string } | { newThread: true } | Record<string, never> {
  if (options.thread !== undefined) return { threadId: options.thread };
  return options.continue === true ? {} : { newThread: true };
}

/** A plan's `next` that leaves the turn unread: nothing ran and no model took it over. */
const notRead: ReadonlySet<string> = new Set(['refuse', 'rephrase', 'declined']);

/** The error code a tool result carries, if it is an error result. */
function errorCodeOf(result: unknown): string | undefined {
  const error = result !== null && typeof result === 'object' ? (result as { error?: { code?: unknown } }).error : undefined;
  return typeof error?.code === 'string' ? error.code : undefined;
}

/** Runs one turn's events (and a confirmation's, for `confirming`, the mutation the person approved). */
async function runTurn(engine: Engine, io: CliIo, json: boolean, decide: Decide, events: AsyncIterable<ChatEvent>, actor: Actor, confirming?: string): Promise<void> {
  let pending: Extract<ChatEvent, { type: 'confirm_mutation' }> | undefined;
  let failure: Extract<ChatEvent, { type: 'error' }> | undefined;
  let plan: Extract<ChatEvent, { type: 'plan' }> | undefined;
  let writeError: string | undefined;
  // A retried attempt's text is taken back, wherever it was printed (answer-text.ts).
  const text = new AnswerText(io);
  for await (const event of events) {
    if (json) io.stdout(`${JSON.stringify(event)}\n`);
    else if (event.type === 'text_chunk') text.chunk(event.content);
    else if (event.type === 'retry') {
      text.retry();
      io.stderr(`· the model failed (${event.code}); retrying\n`);
    } else {
      text.settle();
      if (event.type === 'tool_call') io.stderr(`· ${event.name} ${JSON.stringify(event.args)}\n`);
      else if (event.type === 'queued') io.stderr(`· the conversation is busy: your message waits (position ${event.position})\n`);
      else if (event.type === 'question' && event.source !== 'router') {
        // A model's or a tool's question is what the assistant says; the turn waits for its answer.
        text.chunk(event.text);
        text.settle();
        const choices = event.choices.map((choice) => choice.label).join(', ');
        io.stderr(`· the turn waits for your answer to question ${event.id}${choices === '' ? '' : ` (${choices})`}\n`);
      }
    }
    if (event.type === 'confirm_mutation') pending = event;
    if (event.type === 'error') failure = event;
    if (event.type === 'plan') plan = event;
    if (event.type === 'tool_result' && confirming !== undefined && writeError === undefined) writeError = errorCodeOf(event.result);
  }
  text.settle();
  if (!json && text.wrote) io.stdout('\n');
  if (pending !== undefined) {
    const confirmed = await decide(pending);
    await runTurn(engine, io, json, decide, engine.confirm({ actor, confirmationId: pending.id, confirmed }), actor, confirmed ? pending.mutation : undefined);
    if (!confirmed) throw new CliOutcome(`'${pending.mutation}' was not made: you declined it (exit 4)`, 4);
    return;
  }
  if (failure !== undefined) throw new CliFailure(`${failure.code}: ${failure.message}`);
  if (writeError !== undefined) throw new CliOutcome(`'${confirming!}' was not made: it answered ${writeError} (exit 4)`, 4);
  if (plan?.refused !== undefined) throw new CliOutcome(`'${plan.refused.tool}' was not made: ${plan.refused.code} (exit 4)`, 4);
  if (plan !== undefined && notRead.has(plan.next)) throw new CliOutcome(`the turn was not read (${plan.next === 'declined' ? 'the router declined it' : 'no model is configured to take it over'}; exit 3)`, 3);
}

function askOnTerminal(io: CliIo): Decide {
  return async (event) => {
    if (process.stdin.isTTY !== true) {
      throw new CliUsageError(`'${event.mutation}' needs confirmation and there is no terminal to ask: rerun with --yes or --no`);
    }
    const terminal = createInterface({ input: process.stdin, output: process.stderr });
    try {
      const answer = await terminal.question(`${confirmationSentence(event.mutation, event.input, event.message)} [y/N] `);
      return /^y(es)?$/i.test(answer.trim());
    } catch (error) {
      io.stderr(`plumb: could not read the answer: ${(error as Error).message}\n`);
      return false;
    } finally {
      terminal.close();
    }
  };
}
