/** Reading one turn into a TurnPlan: clauses, tools, arguments, dates, calculations, declines. */
import type { JsonObject, JsonValue } from '../core/index.js';
import type { ClauseView, Filled } from './arguments.js';
import { fillArguments, isFreeText, looksLikeIdentifier, namedFlags } from './arguments.js';
import { isPlannable } from './catalogue.js';
import type { HostClock } from './clock.js';
import { formatDate, formatDateTime, readClock } from './clock.js';
import type { ActorRowFilter, ClauseDate, DataExplanation, DataReading, PreviousStep } from './data-reader.js';
import type { CompiledLanguage, CompiledTool, PhraseSet } from './compile.js';
import type { DateMention } from './dates.js';
import { findDates } from './dates.js';
import type { RouterCore } from './router-core.js';
import { describedTool, filledWithEvidence } from './describe-select.js';
import { hostFollowUp } from './host-follow-up.js';
import { classValues, unplacedNames } from './leftovers.js';
import type { Scored } from './select.js';
import { setWithoutIdentity } from './sets.js';
import { selectTool } from './select.js';
import { fold, humanize, listWords, stem, tokenize } from './text.js';
import type { ArgumentSource, ComputeOperation, ComputeSpec, Guidance, Language, OnUnread, PlanItem, RouterContext, SagaLink, StepKind, TurnPlan, ChainLink } from './types.js';
import type { TurnValue } from './values.js';
import { findValues } from './values.js';

/** A turn that asks for a reason: why, how come, por que, por quê. */
const REASON = /^\s*(?:why|how come|por que|porque)(?![a-z0-9])/;
/** A ranking ("the customer with the most orders", "o melhor cliente"): no read here orders or picks rows by rank. */
const RANKING = /(?<![a-z0-9])(?:(?<!at )(?:most|least)|best|worst|fewest|highest|lowest|biggest|largest|smallest|top \d+|melhor(?:es)?|pior(?:es)?|(?:o|a|os|as) (?:maior|menor)(?:es)?|com (?:mais|menos)(?! de(?![a-z0-9])))(?![a-z0-9])/;

/** The longest turn the router reads; a longer one is unread. */
export const MAX_TURN_LENGTH = 4000;

export interface ReadOptions {
  readonly language: Language;
  readonly context: RouterContext;
  readonly onUnread: OnUnread;
  readonly rephrasesSpent: number;
  readonly index: number;
  /** Read the turn with this tool (a reply that picked one of two candidates). */
  readonly forceTool?: string;
  /** The read steps of the session's last `run` plan, for a follow-up; none for a turn read on its own. */
  readonly previous?: readonly PreviousStep[];
  /** Receives each clause's data-reading explanation (`plumb route --explain`). */
  readonly explain?: (explanation: DataExplanation) => void;
}

/** The asking person's rows as the host put them in the context (`actorRow: { manager, filter }`); null when absent or malformed. */
function actorRowOf(context: RouterContext): ActorRowFilter | null {
  const row = context['actorRow'];
  if (typeof row !== 'object' || row === null || Array.isArray(row)) return null;
  const { manager, filter } = row as { manager?: unknown; filter?: unknown };
  if (typeof manager !== 'string' || typeof filter !== 'object' || filter === null || Array.isArray(filter) || Object.keys(filter).length === 0) return null;
  return { manager, filter: filter as JsonObject };
}

/** A step as it is built, before the plan is finished. */
export interface Draft {
  kind: StepKind;
  text: string;
  decidedBy: string;
  dependsOn: number[];
  tool: string | null;
  args: Record<string, JsonValue>;
  sources: Record<string, ArgumentSource>;
  missing: string[];
  candidates: string[];
  question: string | null;
  supplied: Record<string, number>;
  compute: ComputeSpec | null;
  severalOf: { parameter: string; texts: readonly string[] } | null;
  readAs?: Readonly<Record<string, string>>;
}

interface Clause {
  readonly start: number;
  readonly end: number;
}

export function readTurn(core: RouterCore, turn: string, options: ReadOptions): TurnPlan {
  const lang = core.languages[options.language];
  const clock: HostClock | null = typeof options.context.now === 'string' ? readClock(options.context.now) : null;
  const whole: Clause = { start: 0, end: turn.length };
  if (turn.length > MAX_TURN_LENGTH || turn.trim().length === 0) {
    return finish(core, lang, turn, [unreadDraft(turn.slice(0, 200), turn.length > MAX_TURN_LENGTH ? 'U4 too long' : 'U1 nothing convincing')], options, []);
  }
  const folded = fold(turn);
  if (lang.foreign.test(folded)) return finish(core, lang, turn, [unreadDraft(turn, 'U2 language')], options, []);
  // A question about reasons ("why was order 4415 cancelled?") is no call's to answer: reading the
  // order would answer something else.
  if (REASON.test(folded)) return finish(core, lang, turn, [unreadDraft(turn, 'U7 reason')], options, []);

  const dates = findDates(folded, lang.dates, clock);
  const values = findValues(turn, options.language, lang.words.channels, folded).filter(
    (v) => (v.kind !== 'integer' && v.kind !== 'decimal' && v.kind !== 'spelled') || !dates.some((d) => v.start < d.end && v.end > d.start),
  );
  const clauses = splitClauses(lang, folded, whole);
  const forced = options.forceTool === undefined ? undefined : lang.toolsByName.get(options.forceTool);
  // The data reader first: a clause wholly about the app's rows is read as data.
  const readings = clauses.map((clause) =>
    forced === undefined && lang.reads !== null
      ? lang.reads.read({
          typed: turn.slice(clause.start, clause.end),
          folded: folded.slice(clause.start, clause.end),
          language: options.language,
          dates: clauseDates(dates.filter((d) => d.start >= clause.start && d.end <= clause.end), clause, clock),
          previous: options.previous ?? [],
          now: clock === null ? null : (options.context.now ?? null),
          actorRow: actorRowOf(options.context),
          ...(options.explain === undefined ? {} : { explain: options.explain }),
        })
      : null,
  );
  // A ranking no data reading took ("the customer with the most orders") picks rows by rank, which no
  // host tool does: reading the rows would answer something else.
  if (RANKING.test(folded) && readings.some((r) => r === null)) return finish(core, lang, turn, [unreadDraft(turn, 'U8 ranking')], options, []);
  const drafts: Draft[] = [];
  const evidence: string[] = [];
  const claimed = new Set<TurnValue>();
  // "15 percent" is a number written as a percentage, not a calculation.
  const computeOps = lang.compute.all(folded).filter((op) => !values.some((v) => v.percent === true && op.start < v.end && op.end > v.start));
  // Clauses whose tool the person is asked to choose: their values wait for the answer.
  const pending: Clause[] = [];
  const unplacedDates: string[] = [];
  // Clauses the data-read pass read: their calculation words are the pass's own.
  const dataClauses: Clause[] = [];

  for (const [clauseIndex, clause] of clauses.entries()) {
    const cFolded = folded.slice(clause.start, clause.end);
    const cText = turn.slice(clause.start, clause.end);
    const cValues = values.filter((v) => v.start >= clause.start && v.end <= clause.end);
    const cDates = dates.filter((d) => d.start >= clause.start && d.end <= clause.end);
    const data = readings[clauseIndex] ?? null;
    if (data !== null) {
      for (const v of cValues) claimed.add(v);
      dataClauses.push(clause);
      pushDataReading(core, drafts, data, cText);
      continue;
    }
    const selection = forced === undefined ? selectTool(lang, cFolded, tokenize(cFolded), cValues, cDates) : null;
    let tool: CompiledTool | null = forced ?? selection?.chosen?.tool ?? null;
    let decidedBy = forced !== undefined ? `Q3 candidate ${forced.info.name}` : selection?.chosen?.trigger != null ? `T1 trigger ${selection.chosen.trigger}` : 'T2 name';
    if (selection !== null) evidence.push(...selection.ranked.slice(0, 3).map((s) => s.evidence));

    const availability = lang.availability.test(cFolded) && cDates.length > 0;
    if (availability && (selection?.chosen == null || selection.chosen.trigger === null) && forced === undefined) {
      const listers = lang.tools.filter((t) => t.info.effect === 'read' && t.info.period !== null);
      if (listers.length !== 1) {
        drafts.push({ ...unreadDraft(cText, 'U3 availability'), candidates: listers.map((t) => t.info.name) });
        evidence.push(listers.length === 0 ? 'no read tool takes a start and an end' : `several read tools take a start and an end: ${listers.map((t) => t.info.name).join(', ')}`);
        continue;
      }
      tool = listers[0] as CompiledTool;
      decidedBy = 'D1 availability';
    }

    if (tool === null && selection?.fallback != null) {
      const candidate = selection.fallback.tool;
      const trial = fillArguments(candidate, { turn, folded, start: clause.start, end: clause.end, values: cValues, dates: cDates }, lang, core.rulebook, options.context, clock);
      const complete = candidate.parameters.every((p) => !p.info.required || p.info.name in trial.args);
      if (complete && trial.several === null && candidate.parameters.some((p) => p.info.required)) {
        tool = candidate;
        decidedBy = 'T2 name';
      }
    }

    // T3: no tool convincing on words, but exactly one whose name the turn partly says has every required
    // parameter named in the turn with its value ("radius of 5", "4 light years"), not merely typed.
    if (tool === null && selection !== null && selection.close.length === 0) {
      const named = selection.ranked.filter((s) => s.nameHits > 0 && !s.disagrees && s.tool.parameters.some((p) => p.info.required)).filter((s) => {
        const trial = fillArguments(s.tool, { turn, folded, start: clause.start, end: clause.end, values: cValues, dates: cDates }, lang, core.rulebook, options.context, clock);
        return trial.several === null && s.tool.parameters.every((p) => !p.info.required || trial.rules.includes(`A1 cue ${p.info.name}`) || trial.rules.includes(`A1 unit ${p.info.name}`));
      });
      if (named.length === 1) {
        tool = (named[0] as Scored).tool;
        decidedBy = 'T3 named arguments';
      }
    }

    // T5: no tool named by its words, but one its description clearly points to, every required argument given with evidence.
    if (tool === null && selection !== null && selection.close.length === 0) {
      const described = describedTool(lang, tokenize(cFolded), selection.verbs);
      if (described !== null) {
        const trial = fillArguments(described.tool, { turn, folded, start: clause.start, end: clause.end, values: cValues, dates: cDates }, lang, core.rulebook, options.context, clock);
        if (trial.several === null && filledWithEvidence(described.tool, trial)) {
          tool = described.tool;
          decidedBy = `T5 description ${described.shared.join(' ')}`;
        }
      }
    }

    // T4: "and 4412?" after "show me order 4411": the previous read's tool with the one value this clause gives.
    if (tool === null && forced === undefined) {
      const follow = hostFollowUp(lang, core.rulebook, cFolded, clause.start, cValues, options.previous ?? []);
      if (follow !== null) {
        claimed.add(follow.value);
        drafts.push({ ...blankDraft('tool', cText, `T4 follow-up ${Object.keys(follow.args).find((k) => follow.sources[k] === 'turn') ?? ''}`), tool: follow.tool.info.name, args: follow.args, sources: follow.sources, candidates: [follow.tool.info.name] });
        continue;
      }
    }

    if (tool === null) {
      const close = selection?.close ?? [];
      if (close.length > 1) {
        pending.push(clause);
        drafts.push({
          ...blankDraft('ask', cText, 'Q3 candidates'),
          candidates: close.map((s) => s.tool.info.name),
          question: format(lang, 'candidates', { candidates: listWords(close.map((s) => label(s.tool)), lang.words.messages['or'] ?? 'or') }),
        });
      } else {
        drafts.push({ ...unreadDraft(cText, 'U1 nothing convincing'), candidates: (selection?.ranked ?? []).slice(0, 2).map((s) => s.tool.info.name) });
      }
      continue;
    }

    const filled = fillArguments(tool, { turn, folded, start: clause.start, end: clause.end, values: cValues, dates: cDates }, lang, core.rulebook, options.context, clock);
    // A value the turn gives that does not fit its parameter (a list cut short, a value not in the enum, a date
    // in no format the parameter names): read as anything else, the call would do what was not asked.
    if (filled.refused.length > 0) {
      drafts.push({ ...unreadDraft(cText, `U11 misfit ${filled.refused.join(', ')}`), candidates: [tool.info.name] });
      for (const v of cValues) claimed.add(v);
      continue;
    }
    const set = setWithoutIdentity(tool, cFolded, filled.args);
    if (set !== null) {
      drafts.push({ ...unreadDraft(cText, `U10 set ${set.info.name}`), candidates: [tool.info.name] });
      continue;
    }
    for (const v of filled.claimed) claimed.add(v);
    // A colour, a unit or a language the clause says goes in the open parameter of that kind, or the turn is not read.
    const kinds = classValues(tool, cFolded, cText, filled.args);
    for (const { parameter, value } of kinds) {
      if (value === null) continue;
      filled.args[parameter.info.name] = value;
      filled.sources[parameter.info.name] = 'turn';
      filled.rules.push(`A3 kind ${parameter.info.name}`);
    }
    // Only a step that would run leaves a name out: an asking step's lookups may be made with it ("the project named Alpha").
    const complete = tool.parameters.every((p) => !p.info.required || p.info.name in filled.args);
    const names = complete ? unplacedNames(lang, tool, cText, filled.args, [...cValues, ...cDates].map((v) => [v.start - clause.start, v.end - clause.start] as const)) : [];
    if (names.length > 0) {
      drafts.push({ ...unreadDraft(cText, `U5 unplaced ${names.join(', ')}`), candidates: [tool.info.name] });
      continue;
    }
    // A date the clause names that no parameter of its tool took is as unplaced as a number.
    unplacedDates.push(...cDates.filter((d) => !filled.placedDates.has(d)).map((d) => turn.slice(d.start, d.end)));
    const stems = new Set(tokenize(cFolded).map((t) => stem(t.word)));
    const flags = namedFlags(tool, cFolded, lang, filled.args);
    const unfilled = tool.parameters.filter(
      (p) => !p.info.required && !(p.info.name in filled.args) && (p.mentions.some((w) => stems.has(w)) || p.examples.test(cFolded) || kinds.some((k) => k.parameter === p) || flags.includes(p)),
    );
    if (unfilled.length > 0) {
      drafts.push({ ...unreadDraft(cText, `U6 unfilled ${unfilled.map((p) => p.info.name).join(', ')}`), candidates: [tool.info.name] });
      continue;
    }
    pushToolSteps(core, lang, drafts, tool, filled, cText, decidedBy, clauseIndex > 0 && lang.it.test(cFolded));
  }

  computeOps.splice(0, computeOps.length, ...computeOps.filter((op) => !dataClauses.some((c) => op.start >= c.start && op.end <= c.end)));
  // A calculation the chosen tool itself names (`get_average_score`, "média" in its description's name) is the tool's, not the host's.
  const ownOps = computeOps.filter((op) => {
    const words = op.phrase.split(' ');
    return !drafts.some((d) => d.tool !== null && (core.catalogue.tools.get(d.tool)?.nameWords ?? []).some((w) => words.includes(w) || (w.length >= 3 && words.some((x) => x.startsWith(w)))));
  });
  computeOps.splice(0, computeOps.length, ...ownOps);
  if (computeOps.length > 0 && drafts.some((d) => d.kind === 'tool' || d.kind === 'ask')) {
    const typed = computeWords(turn, folded, lang, computeOps);
    if (!core.rulebook.compute) {
      drafts.push({ ...blankDraft('decline', typed.join(', '), `compute off: ${typed.join(', ')} is a calculation, and this host runs none`) });
    } else {
      const reads = drafts.flatMap((d, i) => (d.kind === 'tool' && d.tool !== null && core.catalogue.tools.get(d.tool)?.effect === 'read' ? [i] : []));
      const oneRow = reads.length === 1 && readsOneRow(lang, drafts[reads[0] as number] as Draft);
      for (const op of computeOps) {
        const operation = lang.computeKeys.get(op.phrase) as ComputeOperation;
        // "the sum order 4411 came to": a total of one row's read is a field of that row, which the words do not name.
        if (oneRow && ROW_AGGREGATES.has(operation)) {
          drafts.push(unreadDraft(turn.slice(op.start, op.end), `U12 one row ${operation}`));
          continue;
        }
        const field = fieldAfter(turn, folded, lang, op.end);
        drafts.push({ ...blankDraft('compute', turn.slice(op.start, op.end), `C1 ${operation}${field === null ? '' : ` ${field}`}`), dependsOn: reads, compute: { operation, field } });
      }
    }
  }

  const left = values.filter(
    (v) => (v.kind === 'integer' || v.kind === 'decimal' || v.kind === 'quoted') && !claimed.has(v) && !pending.some((c) => v.start >= c.start && v.end <= c.end),
  );
  // A calculation may take numbers the reads do not; a date no read placed is never a calculation's.
  const computes = drafts.some((d) => d.kind === 'compute');
  const unplaced = [...(computes ? [] : left.map((v) => v.text)), ...unplacedDates];
  if (unplaced.length > 0 && drafts.some((d) => d.kind === 'tool' || d.kind === 'ask')) {
    // Values the plan does not place mean the turn asked for more than was read: better unread than half done.
    drafts.push(unreadDraft(unplaced.join(', '), `U5 unplaced ${unplaced.join(', ')}`));
  }
  for (const value of values) {
    if ((value.kind === 'url' || value.kind === 'email' || value.kind === 'channel') && !claimed.has(value)) {
      const host = drafts.findIndex((d) => d.kind === 'tool' || d.kind === 'ask');
      const reason = `S2 destination: ${value.text}`;
      if (host >= 0) drafts[host] = { ...(drafts[host] as Draft), kind: 'decline', decidedBy: reason };
      else if (drafts.some((d) => d.kind !== 'unread')) drafts.push(blankDraft('decline', value.text, reason));
    }
  }
  return finish(core, lang, turn, drafts, options, evidence);
}

/** The dates of a clause as a data reader sees them: offsets in the clause, periods in RFC 3339. */
function clauseDates(dates: readonly DateMention[], clause: Clause, clock: HostClock | null): ClauseDate[] {
  return dates.map((d) => ({
    start: d.start - clause.start,
    end: d.end - clause.start,
    from: d.from === null || clock === null ? null : formatDateTime(d.from, clock),
    to: d.to === null || clock === null ? null : formatDateTime(d.to, clock),
    fromDay: d.from === null || clock === null ? null : formatDate(d.from),
    toDay: d.to === null || clock === null ? null : formatDate(d.to),
  }));
}

/**
 * A data reader's steps as drafts: its reads, then its calculations over them (declined where the host
 * runs no calculations), or an unread step where it knows the clause is about data it cannot read.
 */
function pushDataReading(core: RouterCore, drafts: Draft[], reading: DataReading, text: string): void {
  const reads: number[] = [];
  const readAs = reading.readAs !== undefined && Object.keys(reading.readAs).length > 0 ? { readAs: reading.readAs } : {};
  for (const step of reading.steps) {
    if (step.kind === 'tool') {
      reads.push(drafts.length);
      const sources: Record<string, ArgumentSource> = {};
      for (const key of Object.keys(step.arguments)) sources[key] = step.sources?.[key] ?? 'turn';
      drafts.push({
        ...blankDraft('tool', text, step.decidedBy),
        tool: step.tool,
        args: JSON.parse(JSON.stringify(step.arguments)) as Record<string, JsonValue>,
        sources,
        candidates: [step.tool],
        ...readAs,
      });
    } else if (step.kind === 'unread') {
      drafts.push(unreadDraft(text, step.decidedBy));
    } else if (step.kind === 'ask') {
      drafts.push({ ...blankDraft('ask', text, step.decidedBy), candidates: [...step.candidates], question: step.question });
    } else if (!core.rulebook.compute) {
      drafts.push(blankDraft('decline', step.text, `compute off: ${step.text} is a calculation, and this host runs none`));
    } else {
      drafts.push({ ...blankDraft('compute', step.text, step.decidedBy), dependsOn: [...reads], compute: { ...step.compute } });
    }
  }
}

function pushToolSteps(core: RouterCore, lang: CompiledLanguage, drafts: Draft[], tool: CompiledTool, filled: Filled, text: string, decidedBy: string, refersBack: boolean): void {
  const name = tool.info.name;
  const supplied: Record<string, number> = {};
  const dependsOn: number[] = [];
  const args = { ...filled.args };
  const sources = { ...filled.sources };
  // A thing made, then used: the missing identity is the thing an earlier write of this turn makes.
  for (const p of tool.parameters) {
    if (p.info.name in args || !p.info.required) continue;
    const nounWords = p.info.words.filter((w) => !['id', 'code', 'key', 'uuid', 'ref'].includes(w));
    const maker = findLastIndex(drafts, (d) => {
      if (d.tool === null || (d.kind !== 'tool' && d.kind !== 'ask')) return false;
      const made = core.catalogue.tools.get(d.tool);
      if (made === undefined || made.effect === 'read') return false;
      return made.entry.outputs?.identity === p.info.name || (nounWords.length > 0 && nounWords.every((w) => made.nameWords.includes(w)));
    });
    if (maker >= 0 && (refersBack || drafts.length > 0)) {
      supplied[p.info.name] = maker;
      sources[p.info.name] = `step ${maker}`;
      if (!dependsOn.includes(maker)) dependsOn.push(maker);
    }
  }
  // A value an earlier clause of the same turn gave (`charge order 4411 … then send the receipt`) carries over;
  // several values it gave one by one ("in 1900 and 1950 … in these years") carry over as several.
  let carried: { parameter: string; values: JsonValue[]; texts: string[] } | null = null;
  for (const p of tool.parameters) {
    if (p.info.name in args || p.info.name in supplied || !p.info.required) continue;
    const earlier = findLastIndex(drafts, (d) => d.tool !== null && p.info.name in d.args && d.sources[p.info.name] === 'turn');
    if (earlier < 0) continue;
    const source = drafts[earlier] as Draft;
    const each = source.decidedBy === `M1 each ${p.info.name}` ? drafts.filter((d) => d.tool === source.tool && d.decidedBy === source.decidedBy) : [];
    if (each.length > 1 && carried === null) {
      const values = each.map((d) => d.args[p.info.name] as JsonValue);
      carried = { parameter: p.info.name, values, texts: values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))) };
    }
    args[p.info.name] = source.args[p.info.name] as JsonValue;
    sources[p.info.name] = 'turn';
  }
  const required = tool.parameters.filter((p) => p.info.required).map((p) => p.info.name);
  const missing = required.filter((r) => !(r in args) && !(r in supplied));
  const several = filled.several ?? carried;
  const effect = tool.info.effect;
  const base = (): Draft => ({
    ...blankDraft('tool', text, decidedBy),
    tool: name,
    args: { ...args },
    sources: { ...sources },
    supplied: { ...supplied },
    dependsOn: [...dependsOn],
    candidates: [name],
    missing: [...missing],
  });
  if (several !== null && (effect === 'read' || core.rulebook.batchWrites)) {
    for (const value of several.values) {
      const draft = base();
      draft.args[several.parameter] = value;
      draft.decidedBy = `M1 each ${several.parameter}`;
      drafts.push(asAsk(lang, tool, draft));
    }
    return;
  }
  if (several !== null) {
    const draft = base();
    delete draft.args[several.parameter];
    delete draft.sources[several.parameter];
    draft.missing = [several.parameter, ...draft.missing.filter((m) => m !== several.parameter)];
    draft.decidedBy = `Q2 several ${several.parameter}: ${several.texts.join(', ')}`;
    draft.severalOf = { parameter: several.parameter, texts: several.texts };
    drafts.push(asAsk(lang, tool, draft));
    return;
  }
  drafts.push(asAsk(lang, tool, base()));
}

/** A step with something missing becomes an `ask` with its question in the turn's language. */
export function asAsk(lang: CompiledLanguage, tool: CompiledTool, draft: Draft): Draft {
  if (draft.missing.length === 0) {
    draft.kind = 'tool';
    draft.question = null;
    return draft;
  }
  draft.kind = 'ask';
  if (!draft.decidedBy.startsWith('Q')) draft.decidedBy = `Q1 missing ${draft.missing.join(', ')}`;
  const params = draft.missing.map((m) => parameterLabel(tool, m));
  draft.question =
    draft.severalOf !== null
      ? format(lang, 'which_of', { tool: label(tool), param: params[0] ?? '', values: listWords([...draft.severalOf.texts], lang.words.messages['or'] ?? 'or') })
      : format(lang, 'which', { tool: label(tool), param: listWords(params, lang.words.messages['and'] ?? 'and') });
  return draft;
}

export function blankDraft(kind: StepKind, text: string, decidedBy: string): Draft {
  return { kind, text, decidedBy, dependsOn: [], tool: null, args: {}, sources: {}, missing: [], candidates: [], question: null, supplied: {}, compute: null, severalOf: null };
}

function unreadDraft(text: string, rule: string): Draft {
  return blankDraft('unread', text, rule);
}

export function label(tool: CompiledTool): string {
  return tool.label ?? humanize(tool.info.name);
}

function parameterLabel(tool: CompiledTool, name: string): string {
  return tool.parameters.find((p) => p.info.name === name)?.label ?? humanize(name);
}

export function format(lang: CompiledLanguage, key: string, fields: Readonly<Record<string, string>>): string {
  const template = lang.words.messages[key] ?? key;
  return template.replace(/\{(\w+)\}/g, (_, name: string) => fields[name] ?? '');
}

const SENTENCE_END = /(?<!\b(?:inc|mr|mrs|ms|dr|st|no|nr|sr|sra|co|ltd|vs|etc|e\.g|i\.e))[.?!;]+\s+(?=\S)|\b(?:also|plus|additionally|lastly|finally|second|secondly|third|thirdly|tambem|alem disso|por fim|por ultimo)\b,?\s*/g;

function splitClauses(lang: CompiledLanguage, folded: string, whole: Clause): Clause[] {
  // "depois de 2000", "depois do dia 5": "depois" before "de" is "after", not "then".
  const cuts: { start: number; end: number }[] = lang.then.all(folded).filter((c) => !/^\s+d[eoa]s?\b/.test(folded.slice(c.end)));
  for (const m of folded.matchAll(SENTENCE_END)) cuts.push({ start: m.index, end: m.index + m[0].length });
  for (const m of lang.and.all(folded)) {
    // "and how many are paid?": an "and" opening the turn is a follow-up's, and no clause ends before it.
    if (folded.slice(0, m.start).trim().length === 0) continue;
    const rest = folded.slice(m.end).trimStart();
    const next = rest.length === 0 ? '' : rest;
    const verb = [...lang.writeVerbs.all(next), ...lang.readVerbs.all(next)].some((v) => v.start === 0);
    // "… and how does that compare …", "…, and is it paid?": a second question; left in the first
    // clause, a tool read for one part would answer it as if it were the whole.
    const opens = (words: PhraseSet): boolean => words.all(next).some((v) => v.start === 0);
    const question = opens(lang.question) || (/,\s*$/.test(folded.slice(0, m.start)) && opens(lang.yesNo));
    if ((verb || question) && !cuts.some((c) => c.start <= m.start && c.end >= m.end)) cuts.push(m);
  }
  cuts.sort((a, b) => a.start - b.start);
  const clauses: Clause[] = [];
  let from = whole.start;
  for (const cut of cuts) {
    if (cut.start < from) continue;
    if (folded.slice(from, cut.start).trim().length > 0) clauses.push({ start: from, end: cut.start });
    from = cut.end;
  }
  if (folded.slice(from, whole.end).trim().length > 0) clauses.push({ start: from, end: whole.end });
  return clauses.length === 0 ? [whole] : clauses;
}

function computeWords(turn: string, folded: string, lang: CompiledLanguage, ops: readonly { start: number; end: number }[]): string[] {
  const out: string[] = [];
  for (const op of ops) {
    out.push(turn.slice(op.start, op.end));
    const field = fieldAfter(turn, folded, lang, op.end);
    if (field !== null) out.push(field);
  }
  return out;
}

/** The field a calculation is over: the first word after it that is no stopword (`average total` → `total`). */
/** Calculations over several rows' values; over the one row a read by its identifier gives, none means anything. */
const ROW_AGGREGATES: ReadonlySet<ComputeOperation> = new Set(['sum', 'average', 'minimum', 'maximum']);

/** A read step that takes one row by its identifier ("order 4411"): one value for a required identifier parameter. */
function readsOneRow(lang: CompiledLanguage, draft: Draft): boolean {
  const tool = draft.tool === null ? undefined : lang.toolsByName.get(draft.tool);
  return tool !== undefined && tool.parameters.some((p) => p.info.required && (looksLikeIdentifier(p.info.name) || p.pattern !== null) && typeof draft.args[p.info.name] === 'string');
}

function fieldAfter(turn: string, folded: string, lang: CompiledLanguage, from: number): string | null {
  const re = /[a-z0-9]+/g;
  re.lastIndex = from;
  for (let m = re.exec(folded); m !== null; m = re.exec(folded)) {
    if (lang.stopwords.has(m[0])) continue;
    if (/^\d/.test(m[0])) return null;
    return turn.slice(m.index, m.index + m[0].length);
  }
  return null;
}

function findLastIndex<T>(items: readonly T[], test: (item: T) => boolean): number {
  for (let i = items.length - 1; i >= 0; i--) if (test(items[i] as T)) return i;
  return -1;
}

/** Finishes a plan from its drafts: outcome, confirmations, saga, chain, guidance, what goes to a model. */
export function finish(core: RouterCore, lang: CompiledLanguage, turn: string, drafts: readonly Draft[], options: ReadOptions, evidence: readonly string[]): TurnPlan {
  const declines = drafts.filter((d) => d.kind === 'decline');
  const outcome = declines.length > 0 ? 'declined' : drafts.some((d) => d.kind === 'unread') ? 'unread' : drafts.some((d) => d.kind === 'ask') ? 'ask' : drafts.length === 0 ? 'unread' : 'run';
  const steps: Draft[] = drafts.length === 0 ? [unreadDraft(turn, 'U1 nothing convincing')] : [...drafts];
  const saga: SagaLink[] = [];
  steps.forEach((d, i) => {
    if (d.tool === null || core.catalogue.tools.get(d.tool)?.effect !== 'irreversible') return;
    const writes = steps.flatMap((w, j) => (j > i && w.tool !== null && core.catalogue.tools.get(w.tool)?.effect === 'write' ? [j] : []));
    if (writes.length > 0) saga.push({ irreversible: i, writes });
  });
  const items: PlanItem[] = steps.map((d, i) => {
    const tool = d.tool === null ? undefined : lang.toolsByName.get(d.tool);
    let confirmation: string | null = null;
    if (tool !== undefined && tool.info.effect !== 'read' && d.kind === 'tool') {
      confirmation = confirmationText(lang, tool, d);
      const link = saga.find((s) => s.irreversible === i);
      if (link !== undefined) {
        const names = link.writes.map((j) => {
          const w = steps[j]?.tool;
          const wt = w == null ? undefined : lang.toolsByName.get(w);
          return wt === undefined ? String(j) : label(wt);
        });
        confirmation += format(lang, 'saga', { writes: listWords(names, lang.words.messages['and'] ?? 'and') });
      }
    }
    return {
      kind: d.kind,
      text: d.text,
      decidedBy: d.decidedBy,
      dependsOn: [...d.dependsOn],
      selection: {
        tool: d.tool,
        arguments: sortKeys(d.args),
        sources: sortKeys<ArgumentSource>(d.sources),
        missing: [...d.missing],
        candidates: [...d.candidates],
        question: d.question,
      },
      supplied: sortKeys<number>(d.supplied),
      confirmation,
      compute: d.compute,
      ...(d.readAs === undefined ? {} : { readAs: d.readAs }),
    };
  });
  const toModel = outcome === 'unread' && options.onUnread === 'model' ? items.flatMap((item, i) => (item.kind === 'unread' ? [i] : [])) : [];
  const declinedBecause = declines.length > 0 ? declines.map((d) => d.decidedBy).join('; ') : null;
  const chain = outcome === 'ask' ? chainFor(core, lang, items, options.context) : [];
  return {
    outcome,
    language: lang.language,
    turn,
    steps: items,
    guidance: guidanceFor(core, lang, outcome, items, options, evidence, declinedBecause),
    declinedBecause,
    toModel,
    saga,
    chain,
    catalogueVersion: core.catalogue.version,
    vocabularyDigest: core.vocabulary.digest,
    index: options.index,
  };
}

function confirmationText(lang: CompiledLanguage, tool: CompiledTool, d: Draft): string {
  const parts = Object.keys(d.args)
    .sort()
    .map((k) => `${parameterLabel(tool, k)} ${typeof d.args[k] === 'string' ? (d.args[k]) : JSON.stringify(d.args[k])}`);
  for (const [k, step] of Object.entries(d.supplied)) parts.push(`${parameterLabel(tool, k)} ${format(lang, 'from_step', { step: String(step) })}`);
  const name = label(tool);
  return format(lang, 'confirm', { tool: name.charAt(0).toUpperCase() + name.slice(1), arguments: listWords(parts, lang.words.messages['and'] ?? 'and') });
}

function guidanceFor(core: RouterCore, lang: CompiledLanguage, outcome: string, items: readonly PlanItem[], options: ReadOptions, evidence: readonly string[], declinedBecause: string | null): Guidance {
  if (outcome === 'declined') return { next: null, render: null, evidence: declinedBecause === null ? [] : [declinedBecause] };
  if (outcome !== 'unread') return { next: null, render: null, evidence: items.map((i) => i.decidedBy) };
  const rule = core.rulebook;
  const rephrase = rule.askToRephrase && options.rephrasesSpent < rule.maxRephrase;
  const availability = items.some((i) => i.decidedBy.startsWith('U3'));
  const render = rephrase ? rephraseSentence(lang, items, availability) : options.onUnread === 'refuse' ? format(lang, 'unread_refused', {}) : null;
  return { next: rephrase ? 'Rephrase' : 'Defer', render, evidence: [...items.map((i) => i.decidedBy), ...evidence] };
}

/**
 * The request to rephrase, with a turn this host reads: a host tool's example where it has tools (the
 * one the turn came closest to first), else what its data reader offers ("I can read parts and
 * materials"), else a sentence saying there is nothing to ask here — never an empty example.
 */
function rephraseSentence(lang: CompiledLanguage, items: readonly PlanItem[], availability: boolean): string {
  const example = toolExample(lang, items);
  if (example !== null) return format(lang, availability ? 'rephrase_when' : 'rephrase', { example });
  const offer = lang.reads?.offer ?? null;
  if (offer !== null) return format(lang, 'rephrase_data', { topics: listWords([...offer.topics], lang.words.messages['and'] ?? 'and'), example: offer.example });
  return format(lang, 'rephrase_nothing', {});
}

function toolExample(lang: CompiledLanguage, items: readonly PlanItem[]): string | null {
  const named = items.flatMap((i) => i.selection.candidates).map((n) => lang.toolsByName.get(n)).find((t) => t !== undefined && t.info.entry.reads === undefined && t.info.entry.checkOnly !== true);
  const tool = named ?? lang.tools.find((t) => lang.words.tools[t.info.name]?.example != null) ?? lang.tools[0];
  if (tool === undefined) return null;
  const words = lang.words.tools[tool.info.name];
  if (words?.example != null) return words.example;
  const trigger = words?.triggers[0] ?? humanize(tool.info.name);
  const cue = tool.parameters.find((p) => p.info.required && !isFreeText(p));
  return cue === undefined ? trigger : `${trigger} ${humanize(cue.info.name)} …`;
}

/** How many rounds of calls a chain may take before the router gives up on it (the ask stays an ask). */
export const MAX_CHAIN_ROUNDS = 3;

/** One call of a chain being built: its own inputs that other calls produce, and how many rounds it takes. */
interface LookupNode {
  readonly tool: string;
  readonly args: Record<string, JsonValue>;
  readonly identity: string;
  readonly inputs: Readonly<Record<string, LookupNode>>;
  readonly rounds: number;
}

/** The words of a parameter that name the thing it identifies (`customer_id` → `customer`). */
function thingWords(parameter: string): string[] {
  return parameter
    .split(/[_.]|(?=[A-Z])/)
    .map((w) => w.toLowerCase())
    .filter((w) => w.length > 0 && !['id', 'code', 'key'].includes(w));
}

/** The read tools whose declared identity could be `parameter`: every word of the thing it names is in the tool's name. */
function producersOf(core: RouterCore, parameter: string, exclude: ReadonlySet<string>): { name: string; identity: string }[] {
  const nouns = thingWords(parameter);
  if (nouns.length === 0) return [];
  const out: { name: string; identity: string }[] = [];
  for (const info of core.catalogue.tools.values()) {
    const identity = info.entry.outputs?.identity;
    if (info.effect !== 'read' || identity === undefined || exclude.has(info.name) || !isPlannable(info.entry)) continue;
    if (nouns.every((w) => info.nameWords.includes(w))) out.push({ name: info.name, identity });
  }
  return out;
}

/**
 * The call to `name`, with what the turn gives it; an input the turn does not give comes from the one
 * read tool that produces it, within `rounds` rounds. Null when an input stays unknown, when two tools
 * could produce it, or when the chain would take more rounds than allowed.
 */
function lookupNode(core: RouterCore, lang: CompiledLanguage, name: string, identity: string, item: PlanItem, view: ClauseView, context: RouterContext, rounds: number, visited: ReadonlySet<string>): LookupNode | null {
  const tool = lang.toolsByName.get(name);
  if (tool === undefined || rounds <= 0) return null;
  const args: Record<string, JsonValue> = { ...fillArguments(tool, view, lang, core.rulebook, context, null).args };
  for (const p of tool.parameters) {
    const given = item.selection.arguments[p.info.name];
    if (given !== undefined && !(p.info.name in args)) args[p.info.name] = given;
  }
  const inputs: Record<string, LookupNode> = {};
  let depth = 1;
  const seen = new Set([...visited, name]);
  for (const p of tool.parameters) {
    if (!p.info.required || p.info.name in args) continue;
    const producers = producersOf(core, p.info.name, seen);
    if (producers.length !== 1) return null;
    const only = producers[0] as { name: string; identity: string };
    const input = lookupNode(core, lang, only.name, only.identity, item, view, context, rounds - 1, seen);
    if (input === null) return null;
    inputs[p.info.name] = input;
    depth = Math.max(depth, input.rounds + 1);
  }
  return { tool: name, args, identity, inputs, rounds: depth };
}

/**
 * For an asking step whose missing identity a read tool's output gives, the calls that would give it:
 * round 0 first, and a call whose input an earlier call produces names it in `supplied`.
 */
function chainFor(core: RouterCore, lang: CompiledLanguage, items: readonly PlanItem[], context: RouterContext): ChainLink[] {
  const found: { node: LookupNode; round: number; step: number; parameter: string; consumer: LookupNode | null }[] = [];
  const collect = (node: LookupNode, step: number, parameter: string, consumer: LookupNode | null): void => {
    for (const [input, child] of Object.entries(node.inputs)) collect(child, step, input, node);
    found.push({ node, round: node.rounds - 1, step, parameter, consumer });
  };
  items.forEach((item, step) => {
    if (item.kind !== 'ask' || item.selection.tool === null) return;
    const folded = fold(item.text);
    const view: ClauseView = { turn: item.text, folded, start: 0, end: item.text.length, values: findValues(item.text, lang.language, lang.words.channels, folded), dates: [] };
    for (const parameter of item.selection.missing) {
      for (const producer of producersOf(core, parameter, new Set([item.selection.tool]))) {
        const node = lookupNode(core, lang, producer.name, producer.identity, item, view, context, MAX_CHAIN_ROUNDS, new Set([item.selection.tool]));
        if (node !== null) collect(node, step, parameter, null);
      }
    }
  });
  const ordered = found.map((f, i) => ({ ...f, i })).sort((a, b) => a.round - b.round || a.i - b.i);
  const indexOf = new Map(ordered.map((f, i) => [f.node, i]));
  return ordered.map((f) => {
    const supplied: Record<string, number> = {};
    for (const [input, child] of Object.entries(f.node.inputs)) supplied[input] = indexOf.get(child) ?? -1;
    return {
      step: f.step,
      parameter: f.parameter,
      tool: f.node.tool,
      arguments: sortKeys(f.node.args),
      identity: f.node.identity,
      round: f.round,
      supplied: sortKeys<number>(supplied),
      feeds: f.consumer === null ? null : (indexOf.get(f.consumer) ?? null),
    };
  });
}

export function sortKeys<T extends JsonValue>(record: Readonly<Record<string, T>>): Record<string, T> {
  const out: Record<string, T> = {};
  for (const key of Object.keys(record).sort()) out[key] = record[key] as T;
  return out;
}

export type { JsonObject, DateMention };
