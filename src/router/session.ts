import type { JsonObject, JsonValue } from '../core/index.js';
import { canonicalHmac, canonicalJson, PlumbError } from '../core/index.js';
import { answerChain, readReply } from './complete.js';
import { MAX_CHAIN_ROUNDS } from './lookup-chain.js';
import type { ReadOptions } from './read-options.js';
import { readTurn } from './planner.js';
import type { Router } from './router.js';
import { destinationKinds } from './rulebook.js';
import { checkArguments } from './schema-check.js';
import { fold } from './text.js';
import type { DataExplanation, PreviousStep } from './data-reader.js';
import type { ConfirmationToken } from './tokens.js';
import { issueToken, sameArguments, tokenIsGenuine } from './tokens.js';
import type { Effect, Language, OnUnread, RouterContext, TurnPlan } from './types.js';
import { asLanguage } from './vocabulary.js';

export const SESSION_FORMAT = 1;
/** Bounds on what a session carries. */
export const MAX_TURNS_KEPT = 50;
export const MAX_HISTORY = 5000;
export const MAX_THUMBS = 200;

export interface SessionOptions {
  readonly agent?: string;
  readonly context?: RouterContext;
  readonly onUnread?: OnUnread;
  readonly sessionId?: string;
  readonly language?: string;
}

export interface ToolCall {
  readonly tool: string;
  readonly arguments: JsonObject;
  readonly token?: ConfirmationToken | null;
}

export type CheckCode =
  | 'allowed'
  | 'unknown_tool'
  | 'invalid_arguments'
  | 'confirmation_required'
  | 'confirmation_mismatch'
  | 'confirmation_used'
  | 'destination'
  | 'history_edited'
  | 'history_full'
  | 'outcome_unknown';

export interface ToolCheck {
  readonly checkId: string;
  readonly allowed: boolean;
  readonly code: CheckCode;
  readonly reason: string;
  readonly tool: string;
  readonly arguments: JsonObject;
  readonly effect: Effect | null;
  readonly tokenId: string | null;
}

export type RunOutcome = 'ran' | 'failed' | 'outcome_unknown' | 'compensated';
export const RUN_OUTCOMES: readonly RunOutcome[] = ['ran', 'failed', 'outcome_unknown', 'compensated'];

export interface HistoryEntry {
  readonly seq: number;
  readonly kind: 'check' | 'ran';
  readonly checkId: string;
  readonly tool: string;
  readonly arguments: JsonObject;
  readonly allowed: boolean;
  readonly code: string;
  readonly tokenId: string | null;
  readonly outcome: RunOutcome | null;
  readonly prev: string;
  readonly mac: string;
}

export interface SessionState {
  readonly agent: string | null;
  readonly answerSettings: { readonly language: Language; readonly maxRephrase: number; readonly askToRephrase: boolean };
  readonly answered: {
    readonly open: TurnPlan | null;
    readonly rephrasesSpent: number;
    readonly reads: number;
    readonly values: JsonObject;
    readonly thumbs: readonly { readonly plan: number; readonly up: boolean; readonly outcome: string; readonly turn: string }[];
    /** The read steps of the last `run` plan, for a follow-up to narrow or pivot (absent in sessions written before it). */
    readonly previous?: readonly PreviousStep[];
  };
  readonly catalogue: { readonly version: string; readonly vocabularyDigest: string };
  readonly context: RouterContext;
  readonly format: number;
  readonly history: readonly HistoryEntry[];
  readonly onUnread: OnUnread;
  readonly rulebook: string;
  readonly sessionId: string;
  readonly turns: readonly string[];
}

export interface ReadTurnOptions {
  /** Replaces the session's context from this read on (put `now` here each turn). */
  readonly context?: RouterContext;
  /**
   * The language the person chose for this turn (`en`, `pt-BR`); the session goes on in it. Never
   * guessed from the turn: without it, the session's language.
   */
  readonly language?: string;
  /**
   * The question this turn answers, by the asking plan's index (the host keeps which question was
   * open): the turn is read as the reply to that open question; `null`: as a turn of its own, whatever
   * is open. Absent: as the reply to the open question, if there is one.
   */
  readonly reply?: number | null;
  /** Receives each clause's data-reading explanation (`plumb route --explain`). */
  readonly explain?: (explanation: DataExplanation) => void;
}

/** A conversation: carries what the router needs from one turn to the next, and the tool check's history. */
export interface Session {
  readonly sessionId: string;
  read(turn: string, options?: ReadTurnOptions): TurnPlan;
  lookUp(plan: TurnPlan, call: (tool: string, args: JsonObject) => JsonValue | Promise<JsonValue>): Promise<TurnPlan | null>;
  answered(plan: TurnPlan, results: readonly JsonValue[]): TurnPlan | null;
  confirm(plan: TurnPlan, options?: { readonly step?: number; readonly arguments?: JsonObject }): ConfirmationToken;
  checkToolCall(call: ToolCall): ToolCheck;
  /**
   * The host answered an asking plan otherwise (it refused the step outright): the question is no
   * longer open, and the next turn is read on its own.
   */
  dismiss(plan: TurnPlan): void;
  ran(check: ToolCheck, outcome: RunOutcome): void;
  thumbs(plan: TurnPlan, verdict: { readonly up: boolean }): void;
  toJSON(): string;
  /** A copy of the carried state (plain data). */
  state(): SessionState;
  /** What a host checks before a turn, without copying the state: the check history's length, an open question, the language. */
  summary(): SessionSummary;
}

export interface SessionSummary {
  readonly checks: number;
  readonly asking: boolean;
  readonly language: Language;
}

export function createSession(router: Router, options: SessionOptions): Session {
  const language = options.language === undefined ? router.vocabulary.language : asLanguage(options.language);
  const state: SessionState = {
    agent: options.agent ?? null,
    answerSettings: { language, maxRephrase: router.rulebook.maxRephrase, askToRephrase: router.rulebook.askToRephrase },
    answered: { open: null, rephrasesSpent: 0, reads: 0, values: {}, thumbs: [] },
    catalogue: { version: router.catalogueVersion, vocabularyDigest: router.vocabularyDigest },
    context: options.context ?? {},
    format: SESSION_FORMAT,
    history: [],
    onUnread: options.onUnread ?? router.rulebook.onUnread,
    rulebook: router.rulebook.digest,
    sessionId: options.sessionId ?? router.newSessionId(),
    turns: [],
  };
  return new RouterSession(router, state);
}

export interface RestoreOptions {
  /**
   * Restore a session written against another vocabulary digest (same catalogue, same rulebook) and
   * rebind it to this router's vocabulary: for hosts whose vocabulary grows with their data.
   */
  readonly adoptVocabulary?: boolean;
}

/**
 * Restores a session written by `toJSON`, refusing one written against another catalogue, vocabulary
 * or rulebook (another vocabulary is adopted with `adoptVocabulary`).
 */
export function sessionFromJSON(router: Router, json: string, options: RestoreOptions = {}): Session {
  let state: SessionState;
  try {
    state = JSON.parse(json) as SessionState;
  } catch (error) {
    throw new PlumbError('router_invalid_session', 'The saved session is not JSON. Store exactly what session.toJSON() returned.', { cause: error });
  }
  if (typeof state !== 'object' || state === null || state.format !== SESSION_FORMAT || typeof state.sessionId !== 'string' || !Array.isArray(state.history) || typeof state.answered !== 'object') {
    throw new PlumbError('router_invalid_session', `The saved session is not in session format ${SESSION_FORMAT}. Store exactly what session.toJSON() returned.`);
  }
  const mismatch: string[] = [];
  if (state.catalogue?.version !== router.catalogueVersion) mismatch.push(`catalogue ${String(state.catalogue?.version)} (router has ${router.catalogueVersion})`);
  const otherVocabulary = state.catalogue?.vocabularyDigest !== router.vocabularyDigest;
  if (otherVocabulary && options.adoptVocabulary !== true) mismatch.push('vocabulary digest');
  if (state.rulebook !== router.rulebook.digest) mismatch.push('rulebook digest');
  if (mismatch.length > 0) {
    throw new PlumbError('router_session_catalogue_mismatch', `The saved session was read against another ${mismatch.join(', ')}. Start a new session for this router.`, {
      details: { sessionId: state.sessionId },
    });
  }
  if (otherVocabulary) {
    const open = state.answered.open;
    state = {
      ...state,
      catalogue: { version: router.catalogueVersion, vocabularyDigest: router.vocabularyDigest },
      answered: { ...state.answered, open: open === null ? null : { ...open, vocabularyDigest: router.vocabularyDigest } },
    };
  }
  return new RouterSession(router, state);
}

class RouterSession implements Session {
  readonly #router: Router;
  #state: SessionState;
  /** How many history entries are known to be this host's chain (see #chainIntact). */
  #verified = 0;
  /** The canonical JSON of history entries, as far as it has been written (entries never change). */
  readonly #entryJson: string[] = [];

  constructor(router: Router, state: SessionState) {
    this.#router = router;
    this.#state = state;
  }

  get sessionId(): string {
    return this.#state.sessionId;
  }

  #options(index: number, context: RouterContext): ReadOptions {
    return {
      language: this.#state.answerSettings.language,
      context,
      onUnread: this.#state.onUnread,
      rephrasesSpent: this.#state.answered.rephrasesSpent,
      index,
      previous: this.#state.answered.previous ?? [],
    };
  }

  read(turn: string, options: ReadTurnOptions = {}): TurnPlan {
    const text = String(turn);
    const context = options.context ?? this.#state.context;
    const index = this.#state.answered.reads + 1;
    const chosen = options.language === undefined ? this.#state.answerSettings.language : asLanguage(options.language);
    const readOptions = { ...this.#options(index, context), language: chosen, ...(options.explain === undefined ? {} : { explain: options.explain }) };
    const core = this.#router.core;
    const asked = this.#state.answered.open;
    const open = options.reply === undefined ? asked : options.reply === null || asked?.index !== options.reply ? null : asked;
    const plan = (open === null ? null : readReply(core, open, text, readOptions)) ?? readTurn(core, text, readOptions);
    const settings = this.#state.answerSettings;
    const answerSettings = settings.language === plan.language ? settings : { ...settings, language: plan.language };
    const spent = plan.guidance?.next === 'Rephrase' ? 1 : 0;
    const values: Record<string, JsonValue> = { ...this.#state.answered.values };
    if (plan.outcome === 'run') for (const step of plan.steps) Object.assign(values, step.selection.arguments);
    const previous = plan.outcome === 'run' ? readSteps(this.#router, plan) : this.#state.answered.previous;
    this.#state = {
      ...this.#state,
      answerSettings,
      context,
      answered: {
        ...this.#state.answered,
        open: plan.outcome === 'ask' ? plan : null,
        rephrasesSpent: this.#state.answered.rephrasesSpent + spent,
        reads: index,
        values: limitValues(values),
        ...(previous === undefined ? {} : { previous }),
      },
      turns: [...this.#state.turns, text.slice(0, 4000)].slice(-MAX_TURNS_KEPT),
    };
    return plan;
  }

  /**
   * Makes the calls `plan.chain` names, a round at a time (at most MAX_CHAIN_ROUNDS rounds): a call whose
   * input an earlier call produces gets that call's one value. Returns the plan they complete, the plan
   * still asking when a call gave no value or several, or null when the plan names no calls.
   */
  async lookUp(plan: TurnPlan, call: (tool: string, args: JsonObject) => JsonValue | Promise<JsonValue>): Promise<TurnPlan | null> {
    if (plan.chain.length === 0) return null;
    let current = plan;
    for (let round = 0; round < MAX_CHAIN_ROUNDS && current.chain.length > 0; round++) {
      const results: JsonValue[] = [];
      for (const link of current.chain) {
        if (link.round !== 0) break;
        results.push(await call(link.tool, link.arguments));
      }
      const next = this.answered(current, results);
      if (next === null) return null;
      const finished = next.chain.length === 0 || next.steps !== current.steps;
      current = next;
      if (finished) break;
    }
    return current;
  }

  /**
   * The results of `plan.chain`'s calls, `results[i]` for `plan.chain[i]`: all of them, or whole rounds
   * from the first (the plan then comes back asking, with the calls left to make).
   */
  answered(plan: TurnPlan, results: readonly JsonValue[]): TurnPlan | null {
    this.#own(plan);
    const current = answerChain(this.#router.core, plan, results, this.#options(plan.index, this.#state.context));
    if (current !== null) {
      this.#state = { ...this.#state, answered: { ...this.#state.answered, open: current.outcome === 'ask' ? current : null } };
    }
    return current;
  }

  confirm(plan: TurnPlan, options: { readonly step?: number; readonly arguments?: JsonObject } = {}): ConfirmationToken {
    this.#own(plan);
    const index =
      options.step ??
      plan.steps.findIndex((s) => s.kind === 'tool' && s.selection.tool !== null && this.#router.catalogue.tools.get(s.selection.tool)?.effect !== 'read');
    const step = plan.steps[index];
    const effect = step?.selection.tool == null ? undefined : this.#router.catalogue.tools.get(step.selection.tool)?.effect;
    if (step === undefined || step.kind !== 'tool' || effect === undefined || effect === 'read' || plan.outcome !== 'run') {
      throw new PlumbError('router_plan_mismatch', `Plan ${plan.index} has no write step${options.step === undefined ? '' : ` at ${options.step}`} to confirm; only a 'run' plan's write steps are confirmed.`);
    }
    const args: Record<string, JsonValue> = { ...step.selection.arguments, ...(options.arguments ?? {}) };
    const sorted: Record<string, JsonValue> = {};
    for (const key of Object.keys(args).sort()) sorted[key] = args[key] as JsonValue;
    return issueToken(this.#router.core.secret, {
      sessionId: this.#state.sessionId,
      tool: step.selection.tool as string,
      arguments: sorted,
      catalogueVersion: this.#router.catalogueVersion,
      plan: plan.index,
      step: index,
    });
  }

  dismiss(plan: TurnPlan): void {
    this.#own(plan);
    if (this.#state.answered.open?.index !== plan.index) return;
    this.#state = { ...this.#state, answered: { ...this.#state.answered, open: null } };
  }

  checkToolCall(call: ToolCall): ToolCheck {
    const history = this.#state.history;
    const tool = typeof call?.tool === 'string' ? call.tool : String(call?.tool);
    const args: JsonObject = typeof call?.arguments === 'object' && call.arguments !== null ? call.arguments : {};
    const checkId = `${this.#state.sessionId}:${history.length}`;
    const refuse = (code: CheckCode, reason: string, effect: Effect | null = null): ToolCheck => ({ checkId, allowed: false, code, reason, tool, arguments: args, effect, tokenId: call?.token?.tokenId ?? null });
    if (!this.#chainIntact()) return refuse('history_edited', 'The session history was edited since it was written: no call is checked against it. Start a new session.');
    if (history.length >= MAX_HISTORY) return refuse('history_full', `The session has ${MAX_HISTORY} checks, its bound. Start a new session.`);
    const result = this.#decide(call, tool, args, checkId);
    this.#append({ kind: 'check', checkId, tool, arguments: args, allowed: result.allowed, code: result.code, tokenId: result.allowed ? result.tokenId : null, outcome: null });
    return result;
  }

  #decide(call: ToolCall, tool: string, args: JsonObject, checkId: string): ToolCheck {
    const router = this.#router;
    const info = router.catalogue.tools.get(tool);
    const token = call?.token ?? null;
    const base = { checkId, tool, arguments: args, effect: info?.effect ?? null, tokenId: token?.tokenId ?? null };
    const refuse = (code: CheckCode, reason: string): ToolCheck => ({ ...base, allowed: false, code, reason });
    if (info === undefined) return refuse('unknown_tool', `Unknown tool '${tool}'. Tools: ${[...router.catalogue.tools.keys()].join(', ')}.`);
    const problems = checkArguments(info.entry.parameters, call.arguments);
    if (problems.length > 0) return refuse('invalid_arguments', `Arguments for ${tool} do not validate: ${problems.join('; ')}.`);
    const contextText = Object.values(this.#state.context).filter((v): v is string => typeof v === 'string');
    const said = fold([...this.#state.turns, ...contextText].join('\n'));
    for (const [name, value] of Object.entries(args)) {
      if (typeof value !== 'string') continue;
      const kind = destinationKind(value);
      if (kind === null) continue;
      const kinds = destinationKinds(router.rulebook, tool, name);
      const format = info.byName.get(name)?.format;
      const takes = kinds.length > 0 ? kinds.includes(kind) : (kind === 'email' && format === 'email') || (kind === 'url' && (format === 'uri' || format === 'url'));
      if (!takes) return refuse('destination', `S2 destination: ${value} — parameter '${name}' of ${tool} takes no ${kind}.`);
      if (!said.includes(fold(value))) return refuse('destination', `S2 destination: ${value} — neither the person nor the session context named it in this conversation.`);
    }
    if (info.effect === 'read') return { ...base, allowed: true, code: 'allowed', reason: 'a read' };
    if (token === null) return refuse('confirmation_required', `${tool} is a ${info.effect}: it runs only with the person's confirmation token for these exact arguments (session.confirm(plan)).`);
    if (!tokenIsGenuine(router.core.secret, token)) return refuse('confirmation_mismatch', 'The confirmation token was not signed by this host or was changed.');
    if (token.sessionId !== this.#state.sessionId) return refuse('confirmation_mismatch', 'The confirmation token belongs to another session.');
    if (token.catalogueVersion !== router.catalogueVersion) return refuse('confirmation_mismatch', 'The confirmation token was issued against another catalogue version.');
    if (token.tool !== tool || !sameArguments(token.arguments, args)) {
      return refuse('confirmation_mismatch', `The confirmation covers ${token.tool} with ${canonicalJson(token.arguments)}, not this call: ask the person again.`);
    }
    if (this.#state.history.some((e) => e.kind === 'check' && e.allowed && e.tokenId === token.tokenId)) {
      return refuse('confirmation_used', 'This confirmation was already used: each covers one call, once.');
    }
    // An identical write whose outcome is unknown is never made again on its own: the host finds out first.
    const same = this.#state.history.filter((e) => e.kind === 'ran' && e.tool === tool && sameArguments(e.arguments, args));
    if (same.at(-1)?.outcome === 'outcome_unknown') {
      return refuse('outcome_unknown', `The last ${tool} with these arguments has an unknown outcome: find out whether it happened (then record it with ran(check, 'ran' | 'failed' | 'compensated')) before making it again.`);
    }
    return { ...base, allowed: true, code: 'allowed', reason: `confirmed ${info.effect}` };
  }

  ran(check: ToolCheck, outcome: RunOutcome): void {
    if (!RUN_OUTCOMES.includes(outcome)) throw new PlumbError('router_plan_mismatch', `Outcome '${String(outcome)}' is not one of ${RUN_OUTCOMES.join(', ')}.`);
    const entry = this.#state.history.find((e) => e.kind === 'check' && e.checkId === check.checkId && e.allowed);
    if (entry === undefined) throw new PlumbError('router_plan_mismatch', `Check ${check.checkId} is not an allowed check of this session: only allowed calls run.`);
    this.#append({ kind: 'ran', checkId: check.checkId, tool: entry.tool, arguments: entry.arguments, allowed: true, code: outcome, tokenId: entry.tokenId, outcome });
  }

  thumbs(plan: TurnPlan, verdict: { readonly up: boolean }): void {
    this.#own(plan);
    const thumbs = [...this.#state.answered.thumbs, { plan: plan.index, up: verdict.up === true, outcome: plan.outcome, turn: plan.turn.slice(0, 500) }].slice(-MAX_THUMBS);
    this.#state = { ...this.#state, answered: { ...this.#state.answered, thumbs } };
  }

  toJSON(): string {
    // Canonical JSON (RFC 8785) of the state, its keys sorted; each history entry's text is kept once
    // written, since entries never change and the history is most of a long session.
    const state = this.#state as unknown as Readonly<Record<string, unknown>>;
    const history = this.#state.history;
    for (let i = this.#entryJson.length; i < history.length; i++) this.#entryJson.push(canonicalJson(history[i]));
    if (this.#entryJson.length > history.length) this.#entryJson.length = history.length;
    const parts = Object.keys(state)
      .sort()
      .filter((key) => state[key] !== undefined)
      .map((key) => `${JSON.stringify(key)}:${key === 'history' ? `[${this.#entryJson.join(',')}]` : canonicalJson(state[key])}`);
    return `{${parts.join(',')}}`;
  }

  summary(): SessionSummary {
    return { checks: this.#state.history.length, asking: this.#state.answered.open !== null, language: this.#state.answerSettings.language };
  }

  state(): SessionState {
    return JSON.parse(this.toJSON()) as SessionState;
  }

  #own(plan: TurnPlan): void {
    if (plan?.catalogueVersion !== this.#router.catalogueVersion || plan.index > this.#state.answered.reads) {
      throw new PlumbError('router_plan_mismatch', 'This plan was not read by this session (its catalogue version or read index does not match).');
    }
  }

  #append(fields: Omit<HistoryEntry, 'seq' | 'prev' | 'mac'>): void {
    const history = this.#state.history;
    const prev = history.length === 0 ? this.#genesis() : (history[history.length - 1] as HistoryEntry).mac;
    const body = { ...fields, seq: history.length, prev };
    const entry: HistoryEntry = { ...body, mac: canonicalHmac(this.#router.core.secret, body) };
    if (this.#verified === history.length) this.#verified++;
    this.#state = { ...this.#state, history: [...history, entry] };
  }

  #genesis(): string {
    return canonicalHmac(this.#router.core.secret, { sessionId: this.#state.sessionId, purpose: 'plumb.router.history' });
  }

  /**
   * Whether the history is the chain this host wrote. What came in with the JSON is verified once;
   * what this object appends since is its own, so each later check verifies only the entries it has
   * not seen (a long conversation's check no longer re-hashes its whole history).
   */
  #chainIntact(): boolean {
    const history = this.#state.history;
    let prev = this.#verified === 0 ? this.#genesis() : (history[this.#verified - 1] as HistoryEntry).mac;
    for (let seq = this.#verified; seq < history.length; seq++) {
      const entry = history[seq] as HistoryEntry;
      try {
        const { mac, ...body } = entry;
        if (entry.seq !== seq || entry.prev !== prev || canonicalHmac(this.#router.core.secret, body) !== mac) return false;
        prev = mac;
      } catch {
        return false;
      }
    }
    this.#verified = history.length;
    return true;
  }
}

function destinationKind(value: string): 'url' | 'email' | 'channel' | null {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return 'url';
  if (/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value)) return 'email';
  if (/^#[A-Za-z0-9][\w-]*$/.test(value)) return 'channel';
  return null;
}

/**
 * The identity a step's result gives the later step that names it in `supplied`: the result's field
 * named as the input (`project_id`), else the input's last word (`id`, `code`), else `id`. Null where
 * the result has none (or is a list of more than one).
 */
export function resultIdentity(result: JsonValue | undefined, parameter: string): JsonValue | null {
  if (result === undefined || result === null) return null;
  if (Array.isArray(result)) return result.length === 1 ? resultIdentity(result[0] as JsonValue, parameter) : null;
  if (typeof result !== 'object') return null;
  const record = result as Record<string, JsonValue>;
  const last = parameter.split(/_|(?=[A-Z])/).at(-1)?.toLowerCase() ?? 'id';
  for (const key of [parameter, last, 'id']) if (record[key] !== undefined && record[key] !== null) return record[key];
  return null;
}

/** A plan's read tool steps, as a follow-up sees them. */
function readSteps(router: Router, plan: TurnPlan): PreviousStep[] {
  return plan.steps.flatMap((s, i) => {
    if (s.kind !== 'tool' || s.selection.tool === null || router.catalogue.tools.get(s.selection.tool)?.effect !== 'read') return [];
    const compute = plan.steps.find((c) => c.kind === 'compute' && c.compute !== null && c.dependsOn.length === 1 && c.dependsOn[0] === i)?.compute;
    return [{ tool: s.selection.tool, arguments: s.selection.arguments, ...(compute == null ? {} : { compute }) }];
  });
}

function limitValues(values: Record<string, JsonValue>): JsonObject {
  const keys = Object.keys(values);
  if (keys.length <= 100) return values;
  const out: Record<string, JsonValue> = {};
  for (const key of keys.slice(-100)) out[key] = values[key] as JsonValue;
  return out;
}
