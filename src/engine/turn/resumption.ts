import { PlumbError, actorKey } from '../../core/index.js';
import type { Actor, JsonValue } from '../../core/index.js';
import type { ChatEvent, EventChannel } from '../shared/index.js';
import { newItems } from '../shared/index.js';
import { answeredResult, resolveAnswer, turnOfQuestion, unansweredQuestions } from '../thread/index.js';
import type { AnswerInput } from '../thread/index.js';
import { send } from './admission.js';
import type { TurnHost } from './runner.js';
import { reportCall } from './tool-step.js';
import { TurnRun } from './turn-run.js';
import { emptyCounters, errorCodeOf, replayCounters } from './turn-state.js';

export interface ConfirmRequest {
  readonly actor: Actor;
  readonly confirmationId: string;
  readonly confirmed: boolean;
  readonly signal?: AbortSignal;
  /** As in `send`: false when a further write of the resumed turn could not be confirmed. */
  readonly canConfirm?: boolean;
}

/** An answer to a question a turn put (its `question` event's `id`): free text, or one of its choices by id or value. */
export interface AnswerRequest extends AnswerInput {
  readonly actor: Actor;
  readonly questionId: string;
  /** For a router question, whose answer starts the reply's turn: its request key (default a new one). */
  readonly requestKey?: string;
  readonly signal?: AbortSignal;
  /** As in `send`. */
  readonly canConfirm?: boolean;
  /** As in `send`, for a router question's reply. */
  readonly language?: string;
}

/** Answers a question: a router's starts the reply's turn; a model's or a tool's resumes its waiting turn. */
export async function answer(host: TurnHost, request: AnswerRequest, channel: EventChannel<ChatEvent>): Promise<void> {
  await host.usable();
  const unavailable = (): PlumbError => new PlumbError('question_unavailable', 'There is no open question with that id for you: it was answered, or its conversation went on. Refresh the conversation.');
  const owner = actorKey(request.actor);
  const turnId = turnOfQuestion(request.questionId);
  const found = turnId === undefined ? undefined : await host.parts.store.getTurn(turnId);
  if (found === undefined || owner === undefined || found.owner !== owner) throw unavailable();
  const thread = await host.parts.store.getThread(found.threadId);
  if (thread === undefined) throw unavailable();
  const asked = unansweredQuestions(await host.parts.store.listItems(thread.id, { turnId: found.id })).find((question) => question.questionId === request.questionId);
  if (asked === undefined) throw unavailable();
  const answer = resolveAnswer(asked, request);
  if ('problem' in answer) throw new PlumbError('bad_answer', answer.problem);
  if (asked.source === 'router') {
    // The router's question ended its turn; the reply is the thread's next turn, read as the answer to it.
    const latest = (await host.parts.store.listTurns(thread.id)).at(-1);
    if (latest?.id !== found.id) throw unavailable();
    const requestKey = request.requestKey ?? `${request.questionId}.a`;
    return send(host, { actor: request.actor, threadId: thread.id, requestKey, text: answer.text, ...(request.language === undefined ? {} : { language: request.language }), ...(request.canConfirm === undefined ? {} : { canConfirm: request.canConfirm }) }, channel, request.questionId);
  }
  // Claimed like a confirmation: the turn moves from waiting to running under this engine, once.
  const turn = await host.parts.store.updateTurn(found.id, { status: 'running', lease: host.lease() }, ['waiting']);
  if (turn === undefined) throw unavailable();
  const items = [...(await host.parts.store.listItems(thread.id))];
  const turnItems = items.filter((item) => item.turnId === turn.id);
  const open = unansweredQuestions(turnItems);
  if (!open.some((question) => question.questionId === asked.questionId)) {
    await host.parts.store.updateTurn(turn.id, { status: 'waiting' }, ['running']);
    throw unavailable();
  }
  const result = answeredResult(asked, answer);
  const run = new TurnRun({ parts: host.parts, actor: request.actor, thread, turn, channel, items, counters: emptyCounters, canConfirm: request.canConfirm });
  const recorded = [newItems.answer({ questionId: asked.questionId, text: answer.text, ...(answer.choice === undefined ? {} : { choice: answer.choice }), via: 'answer' })];
  if (asked.callId !== undefined) recorded.push(newItems.toolResult({ callId: asked.callId, name: asked.tool ?? '', result }));
  if (open.length > 1) {
    // Other questions of the step are still open: the turn waits on for them.
    await run.append(recorded, { status: 'waiting' });
    const waiting = run.emit({ type: 'tool_result', id: asked.callId ?? asked.questionId, name: asked.tool ?? '', result });
    if (waiting !== undefined) await waiting;
    return;
  }
  run.counters = replayCounters(run.turnItems());
  await host.runner.run(run, async () => {
    await run.append(recorded, { status: 'running' });
    run.counters = replayCounters(run.turnItems());
    const waiting = run.emit({ type: 'tool_result', id: asked.callId ?? asked.questionId, name: asked.tool ?? '', result });
    if (waiting !== undefined) await waiting;
  });
}

/** A person's confirmation (or rejection) of a held write: the write runs, or not, and the turn resumes. */
export async function confirm(host: TurnHost, request: ConfirmRequest, channel: EventChannel<ChatEvent>): Promise<void> {
  await host.usable();
  const unavailable = (threadId = '', turnId = ''): void => {
    void channel.push({
      type: 'error',
      code: 'confirmation_unavailable',
      message: 'There is no pending confirmation with that id for you, or it was already answered. Refresh the conversation.',
      thread_id: threadId,
      turn_id: turnId,
      run_id: '',
    });
  };
  const owner = actorKey(request.actor);
  const record = await host.parts.store.getConfirmation(request.confirmationId);
  if (record === undefined || owner === undefined || record.owner !== owner) return unavailable();
  const thread = await host.parts.store.getThread(record.threadId);
  // A turn resumed here, wherever it paused, runs under this engine's lease from now on.
  const turn = await host.parts.store.updateTurn(record.turnId, { status: 'running', lease: host.lease() }, ['waiting']);
  if (thread === undefined || turn === undefined || record.status !== 'pending') {
    if (turn !== undefined) await host.parts.store.updateTurn(turn.id, { status: 'waiting' }, ['running']);
    return unavailable(record.threadId, record.turnId);
  }
  host.expiry.clear(record.id);
  const items = [...(await host.parts.store.listItems(thread.id))];
  const run = new TurnRun({ parts: host.parts, actor: request.actor, thread, turn, channel, items, counters: emptyCounters, canConfirm: request.canConfirm });
  run.counters = replayCounters(run.turnItems());
  await host.runner.run(run, async () => {
    const effect = host.parts.dispatcher.tool(record.tool)?.effect ?? 'write';
    const call = { id: record.callId, name: record.tool, arguments: JSON.stringify(record.arguments) };
    if (request.confirmed) {
      // Journaled before it runs: after a crash from here on, the write's outcome is unknown.
      await run.append([newItems.confirmationResolution({ confirmationId: record.id, callId: record.callId, outcome: 'approved' })]);
    }
    run.runningWrites++;
    let result: JsonValue;
    try {
      result = (await host.parts.dispatcher.confirm(record.id, { actor: request.actor, confirmed: request.confirmed, signal: run.signal })) as JsonValue;
    } finally {
      run.runningWrites--;
    }
    const expired = errorCodeOf(result) === 'confirmation_expired';
    const outcome = !request.confirmed ? 'rejected' : expired ? 'expired' : 'approved';
    const resolution = outcome === 'approved' ? [] : [newItems.confirmationResolution({ confirmationId: record.id, callId: record.callId, outcome })];
    await run.append([...resolution, newItems.toolResult({ callId: record.callId, name: record.tool, result })]);
    const waiting = run.emit({ type: 'tool_result', id: record.callId, name: record.tool, result });
    if (waiting !== undefined) await waiting;
    if (outcome === 'approved') reportCall(run, call, effect, result);
    else if (host.parts.hooks.has('mutationExecuted')) {
      host.parts.hooks.emit('mutationExecuted', {
        actor: request.actor,
        threadId: thread.id,
        turnId: turn.id,
        callId: record.callId,
        name: record.tool,
        arguments: record.arguments,
        status: outcome,
        result,
      });
    }
    run.counters = replayCounters(run.turnItems());
  });
}

/** The timers of pending confirmations: a lapsed one becomes the call's result and its turn resumes. */
export class ConfirmationExpiry {
  readonly #options: { readonly host: () => TurnHost; readonly closed: () => boolean };
  readonly #timers = new Map<string, ReturnType<typeof setTimeout>>();

  constructor(options: { readonly host: () => TurnHost; readonly closed: () => boolean }) {
    this.#options = options;
  }

  #host(): TurnHost {
    return this.#options.host();
  }

  schedule(confirmationId: string, expiresAt: number): void {
    if (this.#options.closed()) return;
    this.clear(confirmationId);
    const timer = setTimeout(
      () => {
        this.#timers.delete(confirmationId);
        const task = this.#expireOne(confirmationId).then(
          () => undefined,
          (error: unknown) => this.#host().parts.hooks.emit('error', { error, code: 'chat_error', source: 'confirmation_store' }),
        );
        this.#host().runner.track(task);
      },
      Math.max(0, expiresAt - this.#host().parts.clock()),
    );
    timer.unref();
    this.#timers.set(confirmationId, timer);
  }

  clear(confirmationId: string): void {
    const timer = this.#timers.get(confirmationId);
    if (timer !== undefined) clearTimeout(timer);
    this.#timers.delete(confirmationId);
  }

  async expirePending(): Promise<number> {
    await this.#host().usable();
    let count = 0;
    for (const turn of await this.#host().parts.store.turnsWithStatus('waiting')) {
      for (const pending of await this.#host().parts.store.pendingConfirmations(turn.id)) {
        if (pending.expiresAt <= this.#host().parts.clock() && (await this.#expireOne(pending.id))) count++;
      }
    }
    return count;
  }

  /** A lapsed confirmation becomes a tool result the model sees; the turn resumes with nobody reading. */
  async #expireOne(confirmationId: string): Promise<boolean> {
    if (this.#options.closed()) return false;
    const record = await this.#host().parts.store.getConfirmation(confirmationId);
    if (record === undefined || record.status !== 'pending') return false;
    const now = this.#host().parts.clock();
    if (record.expiresAt > now) {
      this.schedule(confirmationId, record.expiresAt);
      return false;
    }
    const thread = await this.#host().parts.store.getThread(record.threadId);
    const turn = await this.#host().parts.store.updateTurn(record.turnId, { status: 'running', lease: this.#host().lease() }, ['waiting']);
    if (thread === undefined || turn === undefined) return false;
    const claim = await this.#host().parts.store.claimConfirmation(record.id, record.owner, now, { status: 'cancelled', reason: 'confirmation_timed_out' });
    if (claim.outcome !== 'expired') {
      await this.#host().parts.store.updateTurn(turn.id, { status: 'waiting' }, ['running']);
      return false;
    }
    const channel = this.#host().runner.channel();
    channel.detach();
    const items = [...(await this.#host().parts.store.listItems(thread.id))];
    const run = new TurnRun({ parts: this.#host().parts, actor: record.actor as unknown as Actor, thread, turn, channel, items, counters: emptyCounters });
    const result: JsonValue = { error: { code: 'confirmation_expired', message: 'Nobody confirmed the change in time, so it was not made.' } };
    await this.#host().runner.run(run, async () => {
      await run.append([
        newItems.confirmationResolution({ confirmationId: record.id, callId: record.callId, outcome: 'expired' }),
        newItems.toolResult({ callId: record.callId, name: record.tool, result }),
      ]);
      this.#host().parts.hooks.emit('mutationExecuted', {
        actor: run.actor,
        threadId: thread.id,
        turnId: turn.id,
        callId: record.callId,
        name: record.tool,
        arguments: record.arguments,
        status: 'expired',
        result,
      });
      run.counters = replayCounters(run.turnItems());
    });
    return true;
  }

  /** Clears every timer (the engine closes). */
  clearAll(): void {
    for (const timer of this.#timers.values()) clearTimeout(timer);
    this.#timers.clear();
  }
}
