import type { ChatMessage, ToolDefinition } from '../../providers/index.js';
import type { ItemRecord } from '../../store/index.js';
import { compactionLimit, outputBudget, safetyMargin, summaryBudget } from '../context/index.js';
import { selectContext, toMessages, transcript } from '../context/index.js';
import { perMessage, renderSnapshot, renderSupplemental, snapshotData, snapshotOf } from '../context/index.js';
import { newItems, toolResultOf } from '../shared/index.js';
import type { KeptHistory } from '../thread/index.js';
import { runProviderRound } from './provider-round.js';
import type { TurnRun } from './turn-run.js';

const summaryInstructions =
  'Summarize the conversation below for the assistant who continues it. Keep every fact the user gave, every value tools returned that may matter later (names, ids, numbers, dates, exactly as written), decisions made and open questions. Plain prose, as short as those facts allow. Do not invent anything.';

/** Below this share of the request, summarizing the older part would hardly shrink it: compaction does nothing. */
const minimumSavings = 0.05;

/** One provider request, ready to send. */
export interface RoundRequest {
  readonly messages: ChatMessage[];
  /** The tools offered: the engine's, and `read_result` while the context holds a cut result. */
  readonly tools: readonly ToolDefinition[];
  /** The request's output budget; undefined leaves it to the provider. */
  readonly maxOutputTokens: number | undefined;
  /** The request's raw (uncalibrated) token estimate, to calibrate against the input tokens the provider reports. */
  readonly estimate: number;
  /** A compaction was installed while it was built. */
  readonly compacted: boolean;
}

/**
 * The next provider request: system prompt, the thread summary, every message item after the
 * summary's marker (the whole thread when it has none), and any one-off prompt (a recovery, a
 * continuation). When its estimate passes the compaction limit, the older part is summarized first
 * (`force`: whatever the estimate, after the provider said the context overflowed). A summary costs
 * rounds and counts toward the turn's usage.
 */
export async function buildRound(run: TurnRun, baseTools: readonly ToolDefinition[], options: { readonly force?: boolean } = {}): Promise<RoundRequest> {
  if (run.window === undefined) await openWindow(run);
  const { settings, tokens } = run.parts;
  let request = compose(run, baseTools);
  let compacted = false;
  const force = options.force === true;
  if (force || (run.window?.failedCompaction !== true && tokens.calibrated(request.estimate) > compactionLimit(settings))) {
    compacted = await compact(run, request.estimate, force);
    if (compacted) request = compose(run, baseTools);
  }
  return { ...request, maxOutputTokens: outputBudget(settings, tokens.calibrated(request.estimate)), compacted };
}

/** The messages of a round without tools (a router-run turn's answer written by the model). */
export async function buildRoundMessages(run: TurnRun): Promise<ChatMessage[]> {
  return (await buildRound(run, [])).messages;
}

/**
 * Fixes where the run's verbatim history starts: right after the summary's marker. The thread's
 * tail is read first; when the marker is not in it (or there is no summary), the whole thread is.
 */
async function openWindow(run: TurnRun): Promise<void> {
  await run.loadThread();
  if (!run.wholeThread && markerIndex(run) < 0) await run.loadWholeThread();
  const loading = run.parts.tokens.ready();
  if (loading !== undefined) await loading;
  // The thread as the turn began (read in its first transaction): while the turn holds the
  // thread nobody else changes its summary, so it need not be read again.
  const index = markerIndex(run);
  const summary = run.thread.summary;
  // A summary whose marker is unknown covers nothing known: the history starts from the beginning.
  const marker = index >= 0 && summary != null ? run.items[index]! : undefined;
  const startOrdinal = marker === undefined ? 0 : marker.ordinal + 1;
  // What the thread's last run left converted and counted, when it ends right before this turn: only this turn is new.
  const kept = run.keptHistory;
  const turnStart = currentTurnStart(run);
  const continues = kept !== undefined && kept.startOrdinal === startOrdinal && kept.through === run.items[turnStart - 1]?.ordinal;
  const tally = continues ? { seen: turnStart, raw: kept.raw, cut: kept.cut, kept, ...(kept.snapshot === undefined ? {} : { snapshot: kept.snapshot }) } : { seen: 0, raw: 0, cut: false };
  run.window = marker === undefined ? { startOrdinal, summary: null, through: 0, tally } : { startOrdinal, summary: summary!, through: marker.ordinal, tally };
}

/** Counts the window's items appended since the tally last looked (items are only appended while the window stands). */
function countNew(run: TurnRun): void {
  const { tokens } = run.parts;
  const window = run.window!;
  const tally = window.tally;
  for (let index = tally.seen; index < run.items.length; index++) {
    const item = run.items[index]!;
    if (item.ordinal < window.startOrdinal) continue;
    tally.raw += tokens.item(item);
    const snapshot = snapshotOf(item);
    if (snapshot !== undefined) tally.snapshot = snapshot;
    if (!tally.cut && item.kind === 'tool_result' && toolResultOf(item).fullBytes !== undefined) tally.cut = true;
  }
  tally.seen = run.items.length;
}

/** The messages of the window's turns before the current one (converted once per window). */
function earlierMessages(run: TurnRun, turnStart: number): readonly ChatMessage[] {
  const window = run.window!;
  const tally = window.tally;
  tally.earlier ??= tally.kept?.messages ?? toMessages(run.items.slice(0, turnStart).filter((item) => item.ordinal >= window.startOrdinal));
  return tally.earlier;
}

/**
 * The run's history converted and counted through its last item, for the thread's next run to
 * continue from (`ThreadTails`); none when no context was opened or the turn did not end (a
 * paused turn's calls are still open).
 */
export function historyToKeep(run: TurnRun): KeptHistory | undefined {
  const window = run.window;
  const last = run.items.at(-1);
  if (window === undefined || run.ended === undefined || last === undefined) return undefined;
  countNew(run);
  const turnStart = currentTurnStart(run);
  const messages = earlierMessages(run, turnStart).concat(toMessages(run.items.slice(turnStart)));
  const { raw, cut, snapshot } = window.tally;
  return { startOrdinal: window.startOrdinal, through: last.ordinal, messages, raw, cut, ...(snapshot === undefined ? {} : { snapshot }) };
}

function markerIndex(run: TurnRun): number {
  const marker = run.thread.summaryThroughItemId;
  return marker == null ? -1 : run.items.findIndex((item) => item.id === marker);
}

function windowItems(run: TurnRun): ItemRecord[] {
  const start = run.window!.startOrdinal;
  return run.items.filter((item) => item.ordinal >= start);
}

/** Where the current turn's items start in `run.items` (a thread has one active turn: its items come last). */
function currentTurnStart(run: TurnRun): number {
  let index = run.items.length;
  while (index > 0 && run.items[index - 1]!.turnId === run.turnId) index--;
  return index;
}

function summaryMessage(summary: string): string {
  return `Summary of the earlier conversation:\n${summary}`;
}

function compose(run: TurnRun, baseTools: readonly ToolDefinition[]): Omit<RoundRequest, 'maxOutputTokens' | 'compacted'> {
  const { tokens, systemPrompt } = run.parts;
  const window = run.window!;
  const { summary, tally } = window;
  countNew(run);
  const messages: ChatMessage[] = [{ role: 'system', content: systemPrompt }];
  let estimate = tokens.repeated(systemPrompt) + perMessage;
  if (summary !== null) {
    const content = summaryMessage(summary);
    messages.push({ role: 'system', content });
    estimate += tokens.repeated(content) + perMessage;
  }
  // The page's facts in effect (the latest snapshot a message sent), then this message's supplemental context.
  const page = tally.snapshot === undefined ? null : renderSnapshot(tally.snapshot);
  for (const content of [page, run.supplementalContext === undefined ? null : renderSupplemental(run.supplementalContext)]) {
    if (content === null) continue;
    messages.push({ role: 'system', content });
    estimate += tokens.repeated(content) + perMessage;
  }
  estimate += tally.raw;
  // The turns before this one do not change while the window stands: converted once. (A turn's
  // calls are answered within it, so converting the parts apart gives what converting all would.)
  const turnStart = currentTurnStart(run);
  // One copy of the history per round (concat, not a push per message): what the request carries.
  const all = messages.concat(earlierMessages(run, turnStart), toMessages(run.items.slice(turnStart)), run.extraMessages);
  if (run.extraMessages.length > 0) estimate += tokens.messages(run.extraMessages);
  const tools = tally.cut ? withReadResult(run, baseTools) : baseTools;
  return { messages: all, tools, estimate: estimate + tokens.tools(tools) };
}

function withReadResult(run: TurnRun, baseTools: readonly ToolDefinition[]): readonly ToolDefinition[] {
  const { toolDefinitions, readResultTools, readResultTool } = run.parts;
  return baseTools === toolDefinitions ? readResultTools : [...baseTools, readResultTool];
}

/**
 * Summarizes the older part of the run's history towards `compactionTarget`: the newest messages
 * that fit in the target less the summary's ceiling and the request's fixed part stay verbatim,
 * the rest (with the current summary) becomes the new summary; `force`d (an overflow), everything
 * before the current turn may go when that keeps nothing older. Does nothing, answering false, when
 * nothing is old enough (every message is the current turn's or fits), when the older part is too
 * small to matter (unless `force`d), or when the summary fails its ceiling (then not tried again
 * in this run unless forced). The summary and its marker are committed to the thread; its item is staged.
 */
async function compact(run: TurnRun, currentEstimate: number, force: boolean): Promise<boolean> {
  const { settings, tokens } = run.parts;
  const window = run.window!;
  const items = windowItems(run);
  // `compose` just counted the history (the request's estimate less it is the fixed part).
  const fixedRaw = currentEstimate - window.tally.raw;
  const recentBudget = Math.max(0, (settings.compactionTarget - settings.summaryCeiling) / tokens.factor - fixedRaw);
  const tokensOf = (item: ItemRecord): number => tokens.item(item);
  let selection = selectContext(items, run.turnId, recentBudget, tokensOf);
  // The provider said it overflowed, whatever the estimate: everything before the current turn may go.
  if (force && selection.prefix.length === 0) selection = selectContext(items, run.turnId, 0, tokensOf);
  const { prefix } = selection;
  if (prefix.length === 0) return false;
  let prefixRaw = 0;
  for (const item of prefix) prefixRaw += tokens.item(item);
  if (!force && prefixRaw < currentEstimate * minimumSavings) return false;
  const entered = run.enter('compacting');
  if (entered !== undefined) await entered;
  const text = await summarize(run, window.summary, prefix);
  if (text === undefined) {
    run.window = { ...window, failedCompaction: true };
    return false;
  }
  const last = prefix[prefix.length - 1]!;
  await run.parts.store.updateThread(run.thread.id, { summary: text, summaryThroughItemId: last.id });
  // The journal's record of it is staged: derived data, made again if lost. Unless it carries the
  // page context in effect past the messages it covers: that is committed, as those messages were.
  const snapshot = window.tally.snapshot;
  const item = { ...newItems.summary(text, last.id), data: { text, throughItemId: last.id, step: run.counters.rounds, ...(snapshot === undefined ? {} : { context: snapshotData(snapshot) }) } };
  await (snapshot === undefined ? run.stage([item]) : run.append([item]));
  run.window = { startOrdinal: selection.recent[0]?.ordinal ?? Number.MAX_SAFE_INTEGER, summary: text, through: last.ordinal, tally: { seen: 0, raw: 0, cut: false } };
  return true;
}

/**
 * The new summary of `covered` after `base`: one provider round per batch that fits the window
 * (each carries the latest summary forward), or undefined when a summary came back cut at its
 * ceiling, empty, or over it (nothing is installed then).
 */
async function summarize(run: TurnRun, base: string | null, covered: readonly ItemRecord[]): Promise<string | undefined> {
  const { settings, tokens } = run.parts;
  const batchRaw = Math.max(1000, (settings.contextWindowTokens - 2 * settings.summaryCeiling - safetyMargin(settings)) / tokens.factor - 300);
  const batches: ItemRecord[][] = [];
  let batch: ItemRecord[] = [];
  let size = 0;
  for (const item of covered) {
    const cost = tokens.item(item);
    if (batch.length > 0 && size + cost > batchRaw) {
      batches.push(batch);
      batch = [];
      size = 0;
    }
    batch.push(item);
    size += cost;
  }
  if (batch.length > 0) batches.push(batch);
  let summary = base;
  for (const part of batches) {
    const next = await summaryRound(run, summary, part);
    if (next === undefined) return undefined;
    summary = next;
  }
  return summary ?? undefined;
}

async function summaryRound(run: TurnRun, base: string | null, items: readonly ItemRecord[]): Promise<string | undefined> {
  const { settings, tokens } = run.parts;
  const ceiling = settings.summaryCeiling;
  const messages: ChatMessage[] = [
    { role: 'system', content: summaryInstructions },
    { role: 'user', content: `${base === null ? '' : `Earlier summary:\n${base}\n\nThen:\n`}${transcript(items)}` },
  ];
  run.counters = { ...run.counters, rounds: run.counters.rounds + 1 };
  const completion = await runProviderRound({
    provider: run.parts.provider!,
    messages,
    tools: [],
    settings,
    signal: run.signal,
    clock: run.parts.clock,
    random: run.parts.random,
    maxOutputTokens: summaryBudget(settings),
  });
  run.addUsage(completion.usage);
  tokens.observe(tokens.messages(messages), completion.usage.inputTokens);
  const text = completion.text.trim();
  if (completion.finishReason === 'length' || text === '' || tokens.calibrated(tokens.text(text)) > ceiling) return undefined;
  return text;
}
