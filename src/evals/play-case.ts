import type { Actor, JsonValue } from '../core/index.js';
import type { EvalCase, EvalDecision, EvalTurn } from './dataset-schema.js';

/** One event as the runner reads it: any transport event, `plan` included; unknown fields are ignored. */
export interface EvalEvent {
  readonly type: string;
}

/** What the runner needs from an engine: its two streaming entry points. */
export interface EvalEngine {
  send(request: {
    readonly actor: Actor;
    readonly threadId?: string;
    readonly requestKey: string;
    readonly text: string;
    /** The language the person chose for the thread (the case's). */
    readonly language?: string;
    readonly signal?: AbortSignal;
  }): AsyncIterable<EvalEvent>;
  confirm(request: { readonly actor: Actor; readonly confirmationId: string; readonly confirmed: boolean; readonly signal?: AbortSignal }): AsyncIterable<EvalEvent>;
}

/** What one case is played against: a fresh engine over fresh data, and the dataset's actors. */
export interface EvalCaseKit {
  readonly engine: EvalEngine;
  /** The fixture's actor of that name; throws `eval_unknown_actor` for one it does not have. */
  actor(name: string): Actor;
  /** A model plays the turns the router leaves unread. */
  readonly withModel: boolean;
  close(): Promise<void>;
}

export type OpenEvalCase = (evalCase: EvalCase, signal: AbortSignal | undefined) => Promise<EvalCaseKit>;

export interface ObservedCall {
  /** The planned task the call ran for, or null outside a planned turn. */
  readonly taskId: string | null;
  readonly tool: string;
  readonly arguments: JsonValue;
  readonly result: JsonValue | undefined;
}

export interface ObservedPlanStep {
  readonly kind: string;
  readonly text: string;
  readonly tool: string | null;
  readonly operation: string | null;
}

/** Everything a turn showed: its plan, calls, confirmations (with the answers given), text and end. */
export interface ObservedTurn {
  /** The plan event's outcome; null when the turn emitted no plan. */
  readonly outcome: string | null;
  readonly planLanguage: string | null;
  readonly planSteps: readonly ObservedPlanStep[];
  readonly calls: readonly ObservedCall[];
  readonly confirmations: readonly { readonly mutation: string; readonly input: JsonValue; readonly decision: EvalDecision }[];
  /** Every text chunk of the turn, confirmations' continuations included. */
  readonly answer: string;
  readonly done: boolean;
  readonly error: { readonly code: string; readonly message: string } | null;
  /** A planned turn's coverage, from its `done` event. */
  readonly coverage: { readonly resolved: number; readonly total: number } | null;
  /** Token usage over the turn's rounds, from its `done` events. */
  readonly usage: { readonly inputTokens: number; readonly outputTokens: number };
  readonly events: number;
  /** Every event, in order, for traces. */
  readonly trace: readonly EvalEvent[];
}

/** Bound on confirmations in one turn: a turn asking for more is cut off and fails. */
const MAX_CONFIRMATIONS = 8;
/** Bound on the events a turn's observation keeps (a runaway stream is cut off there in the trace). */
const MAX_TRACED_EVENTS = 5000;

/**
 * Plays a case's turns on one thread, in order, answering each confirm_mutation as the turn's
 * expectation says (a confirmation the turn did not expect is rejected, and shows in the result).
 */
export interface PlayOptions {
  /** Send the case's language with each turn, as a person who chose it (default true); false leaves it to the router. */
  readonly sendLanguage?: boolean;
  readonly signal?: AbortSignal;
}

export async function playCase(kit: EvalCaseKit, evalCase: EvalCase, options: PlayOptions = {}): Promise<ObservedTurn[]> {
  const { signal } = options;
  const actor = kit.actor(evalCase.actor);
  const observed: ObservedTurn[] = [];
  let threadId: string | undefined;
  for (const [index, turn] of evalCase.turns.entries()) {
    signal?.throwIfAborted();
    const state = new TurnObservation();
    const stream = kit.engine.send({
      actor,
      ...(threadId === undefined ? {} : { threadId }),
      requestKey: `${evalCase.id}#${index + 1}`,
      text: turn.text,
      ...(options.sendLanguage === false ? {} : { language: evalCase.language }),
      ...(signal === undefined ? {} : { signal }),
    });
    let pending = await state.read(stream);
    while (pending !== null && state.confirmationCount < MAX_CONFIRMATIONS) {
      const decision = decisionFor(turn, state.confirmationCount);
      state.confirmed(pending, decision);
      pending = await state.read(kit.engine.confirm({ actor, confirmationId: pending.id, confirmed: decision === 'approve', ...(signal === undefined ? {} : { signal }) }));
    }
    threadId ??= state.threadId ?? undefined;
    observed.push(state.result());
  }
  return observed;
}

function decisionFor(turn: EvalTurn, index: number): EvalDecision {
  const confirm = turn.expect.confirm;
  if (confirm === undefined) return 'reject';
  if (typeof confirm === 'string') return confirm;
  return confirm[index] ?? 'reject';
}

interface PendingConfirmation {
  readonly id: string;
  readonly mutation: string;
  readonly input: JsonValue;
}

class TurnObservation {
  threadId: string | null = null;
  #outcome: string | null = null;
  #planLanguage: string | null = null;
  #planSteps: ObservedPlanStep[] = [];
  readonly #calls: { taskId: string | null; tool: string; arguments: JsonValue; result: JsonValue | undefined; id: string }[] = [];
  readonly #confirmations: { mutation: string; input: JsonValue; decision: EvalDecision }[] = [];
  #answer = '';
  #done = false;
  #error: { code: string; message: string } | null = null;
  #coverage: { resolved: number; total: number } | null = null;
  readonly #usage = { inputTokens: 0, outputTokens: 0 };
  readonly #trace: EvalEvent[] = [];
  #events = 0;

  get confirmationCount(): number {
    return this.#confirmations.length;
  }

  /** Reads one stream to its end; answers the confirmation it stopped on, if any. */
  async read(stream: AsyncIterable<EvalEvent>): Promise<PendingConfirmation | null> {
    let pending: PendingConfirmation | null = null;
    this.#done = false;
    for await (const item of stream) {
      const event = item as EvalEvent & Readonly<Record<string, unknown>>;
      if (this.#events++ < MAX_TRACED_EVENTS) this.#trace.push(item);
      if (typeof event.thread_id === 'string') this.threadId ??= event.thread_id;
      switch (event.type) {
        case 'plan':
          if (this.#outcome === null) {
            this.#outcome = typeof event.outcome === 'string' ? event.outcome : null;
            this.#planLanguage = typeof event.language === 'string' ? event.language : null;
            this.#planSteps = Array.isArray(event.steps) ? event.steps.map(planStep) : [];
          }
          break;
        case 'tool_call':
          this.#calls.push({ id: String(event.id), taskId: typeof event.task_id === 'string' ? event.task_id : null, tool: String(event.name), arguments: (event.args ?? null) as JsonValue, result: undefined });
          break;
        case 'tool_result': {
          const call = this.#calls.find((item) => item.id === String(event.id) && item.result === undefined);
          if (call !== undefined) call.result = (event.result ?? null) as JsonValue;
          break;
        }
        case 'confirm_mutation':
          pending = { id: String(event.id), mutation: String(event.mutation), input: (event.input ?? null) as JsonValue };
          break;
        case 'text_chunk':
          if (typeof event.content === 'string') this.#answer += event.content;
          break;
        case 'done':
          this.#done = true;
          pending = null;
          this.#coverage = coverageOf(event.coverage) ?? this.#coverage;
          this.#addUsage(event.usage);
          break;
        case 'error':
          this.#error = { code: String(event.code), message: String(event.message) };
          pending = null;
          break;
        default:
          break;
      }
    }
    return pending;
  }

  #addUsage(value: unknown): void {
    if (typeof value !== 'object' || value === null) return;
    const usage = value as Record<string, unknown>;
    if (typeof usage.input_tokens === 'number') this.#usage.inputTokens += usage.input_tokens;
    if (typeof usage.output_tokens === 'number') this.#usage.outputTokens += usage.output_tokens;
  }

  confirmed(pending: PendingConfirmation, decision: EvalDecision): void {
    this.#confirmations.push({ mutation: pending.mutation, input: pending.input, decision });
  }

  result(): ObservedTurn {
    return {
      outcome: this.#outcome,
      planLanguage: this.#planLanguage,
      planSteps: this.#planSteps,
      calls: this.#calls.map(({ taskId, tool, arguments: args, result }) => ({ taskId, tool, arguments: args, result })),
      confirmations: this.#confirmations,
      answer: this.#answer,
      done: this.#done,
      error: this.#error,
      coverage: this.#coverage,
      usage: { ...this.#usage },
      events: this.#events,
      trace: this.#trace,
    };
  }
}

function coverageOf(value: unknown): { resolved: number; total: number } | null {
  if (typeof value !== 'object' || value === null) return null;
  const coverage = value as Record<string, unknown>;
  return typeof coverage.resolved === 'number' && typeof coverage.total === 'number' ? { resolved: coverage.resolved, total: coverage.total } : null;
}

function planStep(value: unknown): ObservedPlanStep {
  const step = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  const compute = (typeof step.compute === 'object' && step.compute !== null ? step.compute : {}) as Record<string, unknown>;
  const operation = typeof step.operation === 'string' ? step.operation : typeof compute.operation === 'string' ? compute.operation : null;
  return {
    kind: typeof step.kind === 'string' ? step.kind : '',
    text: typeof step.text === 'string' ? step.text : '',
    tool: typeof step.tool === 'string' ? step.tool : null,
    operation,
  };
}
