/** Reading one turn into a TurnPlan: the clauses, each clause's tool or data reading, dates, calculations, declines. */
import type { JsonObject } from '../core/index.js';
import { fillArguments } from './arguments.js';
import { namedFlags } from './named-flags.js';
import { clauseDates, splitClauses } from './clauses.js';
import type { Clause } from './clauses.js';
import { pushDataReading, pushToolSteps } from './clause-steps.js';
import type { HostClock } from './clock.js';
import { readClock } from './clock.js';
import type { CompiledTool } from './compile.js';
import { pushComputeSteps } from './compute-steps.js';
import type { ActorRowFilter } from './data-reader.js';
import { findDates } from './dates.js';
import { describedTool, filledWithEvidence } from './describe-select.js';
import { hostFollowUp } from './host-follow-up.js';
import { classValues, unplacedNames } from './leftovers.js';
import type { Draft } from './plan-drafts.js';
import { blankDraft, format, label, unreadDraft } from './plan-drafts.js';
import { finish } from './plan-finish.js';
import type { ReadOptions } from './read-options.js';
import type { RouterCore } from './router-core.js';
import type { Scored } from './select.js';
import { selectTool } from './select.js';
import { setWithoutIdentity } from './sets.js';
import { fold, listWords, stem, tokenize } from './text.js';
import type { RouterContext, TurnPlan } from './types.js';
import type { TurnValue } from './values.js';
import { findValues } from './values.js';

/** A turn that asks for a reason: why, how come, por que, por quê. */
const REASON = /^\s*(?:why|how come|por que|porque)(?![a-z0-9])/;
/** A ranking ("the customer with the most orders", "o melhor cliente"): no read here orders or picks rows by rank. */
const RANKING = /(?<![a-z0-9])(?:(?<!at )(?:most|least)|best|worst|fewest|highest|lowest|biggest|largest|smallest|top \d+|melhor(?:es)?|pior(?:es)?|(?:o|a|os|as) (?:maior|menor)(?:es)?|com (?:mais|menos)(?! de(?![a-z0-9])))(?![a-z0-9])/;

/** The longest turn the router reads; a longer one is unread. */
export const MAX_TURN_LENGTH = 4000;

/** The asking person's rows as the host put them in the context (`actorRow: { manager, filter }`); null when absent or malformed. */
function actorRowOf(context: RouterContext): ActorRowFilter | null {
  const row = context['actorRow'];
  if (typeof row !== 'object' || row === null || Array.isArray(row)) return null;
  const { manager, filter } = row as { manager?: unknown; filter?: unknown };
  if (typeof manager !== 'string' || typeof filter !== 'object' || filter === null || Array.isArray(filter) || Object.keys(filter).length === 0) return null;
  return { manager, filter: filter as JsonObject };
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

  pushComputeSteps(core, lang, turn, folded, drafts, computeOps, dataClauses);

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
